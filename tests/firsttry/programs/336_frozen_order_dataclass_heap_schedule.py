# description: Schedule notification jobs for pending orders with a heap of frozen, ordered dataclasses
# value: {"processed": ["o-1008", "o-1005", "o-1003", "o-1010"], "unique_count": 4, "bumped": "Job(due='2024-06-13', priority=0, order_id='o-1005')", "frozen_error": "FrozenInstanceError", "lt": true, "dict_keys": ["second"], "smallest2": ["r", "q"]}
# logs: ["Job(due='2024-06-12', priority=1, order_id='o-1008')", "Job(due='2024-06-13', priority=1, order_id='o-1005')", "Job(due='2024-06-14', priority=1, order_id='o-1003')", "Job(due='2024-06-15', priority=0, order_id='o-1010')"]
import heapq
from dataclasses import dataclass, field, replace


@dataclass(order=True, frozen=True)
class Job:
    due: str
    priority: int
    order_id: str = field(compare=False)
    note: str = field(default="", compare=False, repr=False)


jobs: list[Job] = []
for cid in ("c1", "c2", "c4", "c6"):
    for o in await tools.list_orders(customer_id=cid, status="pending"):
        prio = 0 if o["total"] > 200 else 1
        heapq.heappush(jobs, Job(o["created"], prio, o["id"], note=f"{len(o['lines'])} lines"))

# a duplicate of an existing job compares equal and hashes equal
dup = Job(jobs[0].due, jobs[0].priority, "other-id")
unique = {*jobs, dup}

processed = []
while jobs:
    job = heapq.heappop(jobs)
    processed.append(job.order_id)
    print(job)

bumped = replace(Job("2024-06-13", 1, "o-1005"), priority=0)
try:
    bumped.priority = 5  # type: ignore[misc]
    frozen = False
except Exception as exc:
    frozen = type(exc).__name__

by_job = {Job("2024-06-13", 1, "a"): "first"}
by_job[Job("2024-06-13", 1, "b")] = "second"
return {
    "processed": processed,
    "unique_count": len(unique),
    "bumped": repr(bumped),
    "frozen_error": frozen,
    "lt": Job("2024-06-12", 5, "x") < Job("2024-06-13", 0, "y"),
    "dict_keys": list(by_job.values()),
    "smallest2": [j.order_id for j in heapq.nsmallest(2, [Job("b", 1, "p"), Job("a", 2, "q"), Job("a", 1, "r")])],
}
