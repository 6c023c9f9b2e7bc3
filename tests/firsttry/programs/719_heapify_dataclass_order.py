# description: A heap of order-able dataclasses for restock priority with heapify and heapreplace
# value: {"first": "MS-02", "replaced": "LP-14", "top3": ["MN-27", "HS-07", "KB-01"], "size": 6}
import heapq
from dataclasses import dataclass, field

@dataclass(order=True)
class Restock:
    units: int
    sku: str = field(compare=False)
    name: str = field(compare=False, default="")

products = await tools.list_products()
heap = [Restock(p["in_stock"], p["sku"], p["name"]) for p in products]
heapq.heapify(heap)
first = heapq.heappop(heap)
replaced = heapq.heapreplace(heap, Restock(50, "NEW-1"))
top3 = [r.sku for r in heapq.nsmallest(3, heap)]
return {"first": first.sku, "replaced": replaced.sku, "top3": top3, "size": len(heap)}
