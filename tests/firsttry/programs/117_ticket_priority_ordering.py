# description: Order tickets to open with a rich comparison class and a heap
# value: {"opened": ["T-101:Job('c4', high)", "T-102:Job('c2', high)", "T-103:Job('c1', normal)", "T-104:Job('c3', low)"], "min": "Job('c4', high)", "sorted_desc": ["Job('c3', low)", "Job('c1', normal)"]}
import heapq

class Job:
    RANK = {"high": 0, "normal": 1, "low": 2}

    def __init__(self, customer_id: str, subject: str, priority: str, age_days: int):
        self.customer_id = customer_id
        self.subject = subject
        self.priority = priority
        self.age_days = age_days

    def key(self):
        return (self.RANK[self.priority], -self.age_days, self.customer_id)

    def __lt__(self, other: "Job") -> bool:
        return self.key() < other.key()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Job) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self) -> str:
        return f"Job({self.customer_id!r}, {self.priority})"

jobs = [
    Job("c2", "Payment failed", "high", 1),
    Job("c3", "Password reset", "low", 10),
    Job("c1", "Invoice copy", "normal", 4),
    Job("c4", "Outage", "high", 3),
    Job("c4", "Outage", "high", 3),
]
queue = list(set(jobs))
heapq.heapify(queue)
opened = []
while queue:
    job = heapq.heappop(queue)
    ticket = await tools.create_ticket(customer_id=job.customer_id, subject=job.subject, priority=job.priority)
    opened.append(f"{ticket['id']}:{job!r}")
return {"opened": opened, "min": repr(min(jobs)), "sorted_desc": [repr(j) for j in sorted(jobs, reverse=True)][:2]}
