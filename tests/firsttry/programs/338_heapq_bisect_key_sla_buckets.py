# description: Bucket order totals into SLA bands and merge per-customer order timelines by date
# value: {"merged": ["o-1011", "o-1007", "o-1004", "o-1001", "o-1009", "o-1002", "o-1008", "o-1005", "o-1003", "o-1010"], "bands": {"tiny": ["o-1011", "o-1004"], "large": ["o-1007", "o-1009", "o-1010"], "medium": ["o-1001", "o-1003"], "huge": ["o-1002"], "small": ["o-1008", "o-1005"]}, "between_100_and_300": ["o-1001", "o-1003", "o-1010"], "totals_sorted": true, "biggest": ["o-1002", "o-1009", "o-1007"], "smallest": ["o-1011", "o-1004"], "pushpop": 1.0, "replaced": 39.0, "heap_min": 45.0}
# logs: ["o-1011 o-1007 o-1004 o-1001 o-1009 o-1002 o-1008 o-1005 o-1003 o-1010"]
import bisect
import heapq

BANDS = [50, 100, 250, 500]
NAMES = ["tiny", "small", "medium", "large", "huge"]

timelines = []
for cid in ("c1", "c2", "c4", "c6"):
    orders = await tools.list_orders(customer_id=cid)
    timelines.append(sorted(orders, key=lambda o: o["created"]))

merged = list(heapq.merge(*timelines, key=lambda o: o["created"]))
print(" ".join(o["id"] for o in merged))

bands = {}
for o in merged:
    name = NAMES[bisect.bisect_right(BANDS, o["total"])]
    bands.setdefault(name, []).append(o["id"])

# keep a sorted list of orders by total, using key= (Python 3.10+)
by_total = []
for o in merged:
    bisect.insort(by_total, o, key=lambda x: x["total"])
totals = [o["total"] for o in by_total]
lo = bisect.bisect_left(by_total, 100, key=lambda x: x["total"])
hi = bisect.bisect_right(by_total, 300, key=lambda x: x["total"])

biggest = heapq.nlargest(3, merged, key=lambda o: o["total"])
smallest = heapq.nsmallest(2, merged, key=lambda o: (o["total"], o["id"]))
heap = [o["total"] for o in merged]
heapq.heapify(heap)
first = heapq.heappushpop(heap, 1.0)
replaced = heapq.heapreplace(heap, 999.0)
return {
    "merged": [o["id"] for o in merged],
    "bands": bands,
    "between_100_and_300": [o["id"] for o in by_total[lo:hi]],
    "totals_sorted": totals == sorted(totals),
    "biggest": [o["id"] for o in biggest],
    "smallest": [o["id"] for o in smallest],
    "pushpop": first,
    "replaced": replaced,
    "heap_min": heap[0],
}
