# description: Find gaps between audit events with pairwise and send notifications in batches
# value: {"n": 47, "longest_gap_after": 19, "max_gap_h": 31.22, "sent": ["ntf-1", "ntf-2", "ntf-3", "ntf-4", "|", "ntf-5", "ntf-6", "|"], "refunds": [6, 13, 20, 27], "quiet": 27, "grid": ["a1", "a2", "b1", "b2"], "perms": 12, "pow": [8, 9], "zl": [["a", "x"], ["b", "y"], ["-", "z"]], "chunks": [[0, 1, 2], [3, 4, 5], [6]], "cyc": ["N", "S", "N", "S", "N"]}
# limitation: reading a list's bound __getitem__ (key=gaps.__getitem__) is refused as a dunder read; the refusal names lambda k: gaps[k]
from datetime import datetime
from itertools import pairwise, islice, compress, filterfalse, product, permutations, starmap, zip_longest
import itertools

def batched(iterable, n):
    it = iter(iterable)
    while chunk := tuple(islice(it, n)):
        yield chunk

events = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events.extend(page["items"])
    if (cursor := page["next_cursor"]) is None:
        break
times = [datetime.fromisoformat(e["at"]) for e in events]
gaps = [(b - a).total_seconds() / 3600 for a, b in pairwise(times)]
longest = max(range(len(gaps)), key=gaps.__getitem__)
customers = await tools.list_customers()
sent = []
for batch in batched(customers, 4):
    for c in batch:
        r = await tools.send_notification(to=c["email"], message="Audit complete")
        sent.append(r["id"])
    sent.append("|")
refunds = list(compress([e["id"] for e in events], [e["kind"] == "refund" for e in events]))
quiet = list(filterfalse(lambda e: e["amount"], events))
return {
    "n": len(events), "longest_gap_after": events[longest]["id"], "max_gap_h": round(max(gaps), 2),
    "sent": sent, "refunds": refunds[:4], "quiet": len(quiet),
    "grid": ["".join(p) for p in product("ab", "12")],
    "perms": sum(1 for _ in permutations(range(4), 2)),
    "pow": list(starmap(pow, [(2, 3), (3, 2)])),
    "zl": list(zip_longest("ab", "xyz", fillvalue="-")),
    "chunks": list(batched(range(7), 3)),
    "cyc": list(islice(itertools.cycle("NS"), 5)),
}
