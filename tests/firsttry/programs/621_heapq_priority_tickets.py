# description: Open tickets for failing log lines in priority order using a heap
# value: {"opened": [["T-101", "c3", "high"], ["T-102", "c2", "high"], ["T-103", "c6", "high"]], "left": 3, "cheapest": ["CB-05", "MS-02"], "top_stock": ["CB-05", "HD-10"], "merged": [1, 2, 3, 4, 9, 10]}
import heapq
import itertools

log = await tools.fetch_logs()
RANK = {"ERROR": 0, "WARN": 1, "INFO": 2}
heap = []
counter = itertools.count()
for line in log.splitlines():
    parts = line.split()
    level, user = parts[2], parts[-1].removeprefix("user=")
    if level in ("ERROR", "WARN"):
        heapq.heappush(heap, (RANK[level], next(counter), user, " ".join(parts[3:6])))

opened = []
seen = set()
while heap and len(opened) < 3:
    rank, _, user, what = heapq.heappop(heap)
    if user in seen:
        continue
    seen.add(user)
    t = await tools.create_ticket(customer_id=user, subject=what, priority="high" if rank == 0 else "normal")
    opened.append((t["id"], user, t["priority"]))

products = await tools.list_products()
return {
    "opened": opened,
    "left": len(heap),
    "cheapest": [p["sku"] for p in heapq.nsmallest(2, products, key=lambda p: p["price"])],
    "top_stock": [p["sku"] for p in heapq.nlargest(2, products, key=lambda p: p["in_stock"])],
    "merged": list(heapq.merge([1, 4, 9], [2, 3, 10], reverse=False)),
}
