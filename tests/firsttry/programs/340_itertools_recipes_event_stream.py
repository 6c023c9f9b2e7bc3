# description: Analyse the audit event log with itertools recipes: groupby, pairwise, batching, accumulate and friends
# value: {"by_day": {"2024-06-10": 9, "2024-06-11": 10, "2024-06-12": 10, "2024-06-13": 10, "2024-06-14": 8}, "longest_run": ["logout", 1], "gap_set": [1], "running_last": 1363.86, "running_len": 15, "peak_last": 185.99, "batches": [536.95, 445.95, 591.95, 411.95], "grouper": [[0, 1, 2], [3, 4, 5]], "padded": [["a", 1], ["b", 2], ["c", null]], "products": [6, 20], "head": [1, 2, 3], "tail_start": 6, "flat": [1, 2, 3], "tee": [[0, 1, 2, 3], [0, 1, 2, 3]], "cycled": ["A", "B", "A", "B", "A"], "pairs": ["xx", "xy", "yx", "yy"], "chosen": ["A", "C", "E", "F"], "count_from": [10, 15, 20]}
# logs: ["47 events over 5 days; longest run ('logout', 1)"]
import itertools
from itertools import accumulate, chain, groupby, islice, pairwise, starmap, takewhile, dropwhile, zip_longest
import operator

events = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events.extend(page["items"])
    cursor = page["next_cursor"]
    if cursor is None:
        break


def batched(iterable, n):
    it = iter(iterable)
    while batch := tuple(islice(it, n)):
        yield batch


by_day = {day: len(list(group)) for day, group in groupby(events, key=lambda e: e["at"][:10])}
runs = [(kind, len(list(g))) for kind, g in groupby(e["kind"] for e in events)]
longest_run = max(runs, key=lambda r: r[1])
gaps = [b["id"] - a["id"] for a, b in pairwise(events)]
amounts = [e["amount"] for e in events if e["kind"] == "purchase"]
running = list(accumulate(amounts, initial=0))
peak = list(accumulate(amounts, max))
batches = [sum(e["amount"] for e in b) for b in batched(events, 12)]
grouper = list(zip(*[iter(range(7))] * 3))
padded = list(zip_longest("abc", [1, 2], fillvalue=None))
products = list(starmap(operator.mul, [(2, 3), (4, 5)]))
head = [e["id"] for e in takewhile(lambda e: e["kind"] != "error", events)]
tail_start = next(dropwhile(lambda e: e["kind"] != "refund", events))["id"]
flat = list(chain.from_iterable([[1, 2], [3], []]))
a, b = itertools.tee(range(4))
cycled = list(islice(itertools.cycle("AB"), 5))
pairs = list(itertools.product("xy", repeat=2))
chosen = list(itertools.compress("ABCDEF", [1, 0, 1, 0, 1, 1]))
count_from = list(islice(itertools.count(10, 5), 3))

print(f"{len(events)} events over {len(by_day)} days; longest run {longest_run}")
return {
    "by_day": by_day,
    "longest_run": list(longest_run),
    "gap_set": sorted(set(gaps)),
    "running_last": round(running[-1], 2),
    "running_len": len(running),
    "peak_last": peak[-1],
    "batches": [round(x, 2) for x in batches],
    "grouper": grouper,
    "padded": padded,
    "products": products,
    "head": head,
    "tail_start": tail_start,
    "flat": flat,
    "tee": [list(a), list(b)],
    "cycled": cycled,
    "pairs": ["".join(p) for p in pairs],
    "chosen": chosen,
    "count_from": count_from,
}
