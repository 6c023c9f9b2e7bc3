# description: Dispatch error-log incidents as tickets from a priority queue, with an undo stack
# value: {"created": 6, "order": [1, 2, 4, 5, 0, 3], "high": 4, "rolled_back": ["T-106", "T-105"]}
import asyncio
import itertools
import re

LINE = re.compile(r"^(?P<date>\S+) (?P<time>\S+) (?P<level>\w+)\s+(?P<service>\w+)\s+(?P<rest>.*?)\s+user=(?P<user>c\d+)$")
RANK = {"ERROR": 0, "WARN": 1, "INFO": 2}

queue: asyncio.PriorityQueue[tuple[int, int, dict]] = asyncio.PriorityQueue()
undo: asyncio.LifoQueue[str] = asyncio.LifoQueue()
seq = itertools.count()
for line in (await tools.fetch_logs()).splitlines():
    if (m := LINE.match(line)) and m["level"] != "INFO":
        await queue.put((RANK[m["level"]], next(seq), m.groupdict()))

created: list[dict] = []

async def dispatcher(name: str) -> None:
    while True:
        try:
            rank, n, incident = queue.get_nowait()
        except asyncio.QueueEmpty:
            return
        priority = "high" if rank == 0 else "low"
        ticket = await tools.create_ticket(customer_id=incident["user"], subject=f"[{incident['service']}] {incident['rest'][:40]}", priority=priority)
        await undo.put(ticket["id"])
        created.append({"by": name, "n": n, "ticket": ticket["id"], "priority": priority})
        queue.task_done()

await asyncio.gather(dispatcher("d1"), dispatcher("d2"))
rolled_back = []
while not undo.empty() and len(rolled_back) < 2:
    rolled_back.append(await undo.get())
return {
    "created": len(created),
    "order": [c["n"] for c in sorted(created, key=lambda c: c["ticket"])],
    "high": sum(c["priority"] == "high" for c in created),
    "rolled_back": rolled_back,
}
