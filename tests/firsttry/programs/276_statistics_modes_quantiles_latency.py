# description: Summarise API latency from the raw logs with robust statistics
# value: {"summary": {"n": 9, "mean": 175.67, "median": 22, "median_low": 22, "median_high": 22, "median_grouped": 22.0, "harmonic_ok": 15.89, "geometric_ok": 18.44, "pstdev_ok": 11.16, "pvariance_ok": 124.56, "quartiles_incl": [12.0, 22.0, 40.0], "modes_status": [200], "mode_method": "GET", "single_point": "stdev requires at least two data points"}, "slow": ["GET /orders/o-1005", "GET /search?q=refund"]}
# logs: ["           mean:   175.67 ms", "         median:    22.00 ms", " median_grouped:    22.00 ms", "   geometric_ok:    18.44 ms"]
import re
import statistics as st

text = await tools.fetch_logs(service="api")
rows = []
for line in text.splitlines():
    if m := re.search(r"(?P<method>GET|POST|PUT|DELETE) (?P<path>\S+) (?P<status>\d{3}) (?P<ms>\d+)ms", line):
        rows.append({**m.groupdict(), "ms": int(m["ms"]), "status": int(m["status"])})

lat = [r["ms"] for r in rows]
ok = [r["ms"] for r in rows if r["status"] < 400]
summary = {
    "n": len(lat),
    "mean": round(st.fmean(lat), 2),
    "median": st.median(lat),
    "median_low": st.median_low(lat),
    "median_high": st.median_high(lat),
    "median_grouped": round(st.median_grouped(lat, interval=10), 2),
    "harmonic_ok": round(st.harmonic_mean(ok), 2),
    "geometric_ok": round(st.geometric_mean(ok), 2),
    "pstdev_ok": round(st.pstdev(ok), 2),
    "pvariance_ok": round(st.pvariance(ok), 2),
    "quartiles_incl": st.quantiles(lat, n=4, method="inclusive"),
    "modes_status": st.multimode(r["status"] for r in rows),
    "mode_method": st.mode(r["method"] for r in rows),
}
try:
    st.stdev([lat[0]])
except st.StatisticsError as e:
    summary["single_point"] = str(e)
slow = [f"{r['method']} {r['path']}" for r in rows if r["ms"] > summary["quartiles_incl"][2]]
for key in ("mean", "median", "median_grouped", "geometric_ok"):
    print(f"{key:>15}: {summary[key]:>8.2f} ms")
return {"summary": summary, "slow": slow}
