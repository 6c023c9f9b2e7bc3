# description: Run a ticket scheduler with lazy-deletion heap entries and dataclasses sorted by a computed index
# value: {"sorted": ["o-1010", "o-1003", "o-1008", "o-1005", "o-1002", "o-1009"], "reprs": ["Work(order_id='o-1010', total=268.0, status='pending')", "Work(order_id='o-1003', total=188.0, status='pending')"], "size": 5, "popped": ["o-1009", "o-1003", "o-1008", "o-1005", "o-1002"], "empty": "'pop from an empty scheduler'", "cmp": true}
# logs: ["['o-1009', 'o-1003', 'o-1008', 'o-1005', 'o-1002']"]
import heapq
import itertools
from dataclasses import dataclass, field

REMOVED = "<removed>"


class Scheduler:
    def __init__(self) -> None:
        self.heap: list[list] = []
        self.entries: dict[str, list] = {}
        self.counter = itertools.count()

    def add(self, task: str, priority: int = 0) -> None:
        if task in self.entries:
            self.remove(task)
        entry = [priority, next(self.counter), task]
        self.entries[task] = entry
        heapq.heappush(self.heap, entry)

    def remove(self, task: str) -> None:
        entry = self.entries.pop(task)
        entry[-1] = REMOVED

    def pop(self) -> str:
        while self.heap:
            priority, count, task = heapq.heappop(self.heap)
            if task is not REMOVED:
                del self.entries[task]
                return task
        raise KeyError("pop from an empty scheduler")

    def __len__(self) -> int:
        return len(self.entries)


@dataclass(order=True)
class Work:
    sort_index: tuple = field(init=False, repr=False)
    order_id: str
    total: float
    status: str

    def __post_init__(self) -> None:
        self.sort_index = (self.status != "pending", -self.total)


work = []
for cid in ("c1", "c2", "c4", "c6"):
    for o in await tools.list_orders(customer_id=cid):
        if o["status"] in ("pending", "shipped"):
            work.append(Work(o["id"], o["total"], o["status"]))
work.sort()

s = Scheduler()
for rank, w in enumerate(work):
    s.add(w.order_id, priority=rank)
s.add(work[-1].order_id, priority=-1)
s.remove(work[0].order_id)
sizes = len(s)
order = []
while True:
    try:
        order.append(s.pop())
    except KeyError as e:
        empty = str(e)
        break
print(order)
return {"sorted": [w.order_id for w in work], "reprs": [repr(w) for w in work[:2]],
        "size": sizes, "popped": order, "empty": empty, "cmp": work[0] < work[1]}
