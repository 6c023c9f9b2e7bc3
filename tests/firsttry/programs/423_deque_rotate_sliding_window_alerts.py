# description: Detect bursts of error events with a sliding deque window, round-robin assignment with deque.rotate
# limitation: a returned dict with int keys is refused, plain json.dumps converts them
# value: {"bursts": [27], "assignment": {"27": "ana"}, "load": {"ana": 1}, "last5": [0, 43, 44, 45, 46], "maxlen": 5, "rotated": [-2, -1, 4, 5, 0, 1, 2, 3], "count": 1}
from collections import deque, Counter
from datetime import datetime, timedelta

events = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events += page["items"]
    if not (cursor := page["next_cursor"]):
        break

window: deque = deque()
WINDOW = timedelta(hours=12)
bursts = []
for e in events:
    if e["kind"] not in ("error", "refund"):
        continue
    at = datetime.fromisoformat(e["at"])
    window.append(at)
    while window and at - window[0] > WINDOW:
        window.popleft()
    if len(window) >= 3:
        bursts.append(e["id"])

agents = deque(["ana", "ben", "cy"])
assignment = {}
for eid in bursts:
    assignment[eid] = agents[0]
    agents.rotate(-1)

last5 = deque((e["id"] for e in events), maxlen=5)
last5.appendleft(0)
d = deque(range(6))
d.rotate(2)
d.extendleft([-1, -2])
return {
    "bursts": bursts,
    "assignment": assignment,
    "load": dict(Counter(assignment.values())),
    "last5": list(last5),
    "maxlen": last5.maxlen,
    "rotated": list(d),
    "count": d.count(0),
}
