# description: Schedule follow-ups with a heap of tuples, grade customers by spend with bisect, and merge sorted streams
# value: {"schedule": [["c1", "o-1003"], ["c6", "o-1010"], ["c2", "o-1005"]], "rest": [["c4", "o-1008"]], "grades": {"c1": "C", "c2": "D", "c3": "E", "c4": "D", "c5": "E", "c6": "C"}, "below_500": 4, "inserted_at": 4, "merged": [39.0, 118.25, 188.0, 268.0, 447.0, 559.98], "top": [["c1", 866.23], ["c6", 754.0], ["c4", 455.49]], "low": ["c5", "c3"]}
import heapq
import bisect
from itertools import count

BREAKS = [100, 500, 1000, 2500]
GRADES = "EDCBA"


def grade(spend: float) -> str:
    return GRADES[bisect.bisect(BREAKS, spend)]


tie = count()
heap: list[tuple[int, int, str, str]] = []
spend = {}
for c in await tools.list_customers():
    orders = await tools.list_orders(customer_id=c["id"])
    spend[c["id"]] = round(sum(o["total"] for o in orders), 2)
    pending = [o for o in orders if o["status"] == "pending"]
    for o in pending:
        prio = {"enterprise": 0, "pro": 1, "free": 2}[c["tier"]]
        heapq.heappush(heap, (prio, next(tie), c["id"], o["id"]))

schedule = [heapq.heappop(heap)[2:] for _ in range(min(3, len(heap)))]
rest = sorted(heap)
grades = {cid: grade(s) for cid, s in spend.items()}
ordered_spend = sorted(spend.values())
pos = bisect.bisect_left(ordered_spend, 500)
bisect.insort(ordered_spend, 500.0)
a = sorted(o["total"] for o in await tools.list_orders(customer_id="c1"))
b = sorted(o["total"] for o in await tools.list_orders(customer_id="c6"))
merged = list(heapq.merge(a, b, reverse=False))
top = heapq.nlargest(3, spend.items(), key=lambda kv: kv[1])
low = heapq.nsmallest(2, spend, key=spend.get)
return {
    "schedule": schedule,
    "rest": [r[2:] for r in rest],
    "grades": grades,
    "below_500": pos,
    "inserted_at": ordered_spend.index(500.0),
    "merged": merged,
    "top": top,
    "low": low,
}
