# description: Grade purchase amounts with bisect, take the top 3 with heapq and summarise with statistics
# value: {"graded": ["B", "A", "A", "D", "D", "B"], "top3": [185.99, 170.99, 111.99], "mean": 107.99, "median": 107.99, "stdev": 63.46, "quartiles": [41.24, 107.99, 174.74]}
import bisect
import heapq
import statistics

page = await tools.list_events(page_size=20)
amounts = [e["amount"] for e in page["items"] if e["kind"] == "purchase"]
breakpoints = [50, 100, 150]
grades = "DCBA"
graded = [grades[bisect.bisect(breakpoints, a)] for a in amounts]
top3 = heapq.nlargest(3, amounts)
return {
    "graded": graded,
    "top3": top3,
    "mean": round(statistics.fmean(amounts), 2),
    "median": statistics.median(amounts),
    "stdev": round(statistics.stdev(amounts), 2),
    "quartiles": [round(q, 2) for q in statistics.quantiles(amounts, n=4)],
}
