# description: Drain an in-memory page queue with iter(callable, sentinel) and dict.fromkeys
# value: {"error": 3, "login": 5, "logout": 3, "purchase": 6, "refund": 3}
from collections import deque

page = await tools.list_events(page_size=20)
events = page["items"]
pending = deque(events)

def next_event():
    return pending.popleft() if pending else None

kinds = dict.fromkeys(sorted({e["kind"] for e in events}), 0)
for event in iter(next_event, None):
    kinds[event["kind"]] += 1
return kinds
