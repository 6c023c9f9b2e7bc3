# description: Latency percentiles from the API log
# value: {"count": 9, "mean": 175.7, "median": 22, "p25": 10.0, "p75": 145.0, "stdev": 391.83, "max": 1200}
# logs: [" count:        9", "  mean:    175.7", "median:       22", "   p25:     10.0", "   p75:    145.0", " stdev:   391.83", "   max:     1200"]
import re
import statistics

text = await tools.fetch_logs(service="api")
latencies = [int(ms) for ms in re.findall(r"(\d+)ms", text)]
q = statistics.quantiles(latencies, n=4)
summary = {
    "count": len(latencies),
    "mean": round(statistics.fmean(latencies), 1),
    "median": statistics.median(latencies),
    "p25": q[0],
    "p75": q[2],
    "stdev": round(statistics.stdev(latencies), 2),
    "max": max(latencies),
}
for key, value in summary.items():
    print(f"{key:>6}: {value:>8}")
return summary
