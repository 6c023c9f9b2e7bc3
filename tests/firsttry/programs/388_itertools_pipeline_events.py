# description: Stream audit events through an itertools pipeline with groupby, accumulate, pairwise and tee
# value: {"final_balance": 740.92, "peak": 740.92, "by_kind": {"error": 7, "login": 13, "logout": 7, "purchase": 14, "refund": 6}, "gaps_head": [74.0, -163.0, 148.0, -126.0, 37.0], "first_refund": 6, "leading_logins": 2, "batches": [491.96, 260.96, 592.96, 235.96, 404.96], "paired": [[3, 10], [5, 12], [6, null]], "labels": ["0:l", "1:l", "2:p", "3:e", "4:p", "5:r"], "mask": [3, 5, 6, 10], "zero_amount": 27, "combos": [["error", "login"], ["error", "logout"], ["error", "purchase"]]}
# logs: ["pages=4 events=47 money=20"]
import itertools
from itertools import groupby, accumulate, pairwise, chain, tee, islice, takewhile, dropwhile, zip_longest, starmap, compress, filterfalse
from operator import itemgetter


async def all_events():
    cursor = None
    pages = []
    while True:
        page = await tools.list_events(cursor=cursor, page_size=15)
        pages.append(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    return pages


def batched(iterable, n):
    it = iter(iterable)
    while chunk := tuple(islice(it, n)):
        yield chunk


pages = await all_events()
events = list(chain.from_iterable(pages))
money = [e for e in events if e["amount"] > 0]
a, b = tee(money)
running = list(accumulate((e["amount"] if e["kind"] == "purchase" else -e["amount"] for e in a), initial=0))
by_kind = {k: len(list(g)) for k, g in groupby(sorted(events, key=itemgetter("kind")), key=itemgetter("kind"))}
gaps = [round(y["amount"] - x["amount"], 2) for x, y in pairwise(b)]
first_refund = next(dropwhile(lambda e: e["kind"] != "refund", events))["id"]
leading_logins = len(list(takewhile(lambda e: e["kind"] != "purchase", events)))
batches = [sum(e["amount"] for e in batch) for batch in batched(money, 4)]
paired = [(x["id"], y["id"] if y else None) for x, y in zip_longest(money[:3], money[3:5])]
products = list(starmap(lambda i, e: f"{i}:{e['kind'][0]}", enumerate(events[:6])))
mask = list(compress([e["id"] for e in events[:10]], [e["amount"] > 0 for e in events[:10]]))
non_zero = sum(1 for _ in filterfalse(lambda e: e["amount"], events))
combos = list(itertools.combinations(sorted(by_kind), 2))[:3]

print(f"pages={len(pages)} events={len(events)} money={len(money)}")
return {
    "final_balance": round(running[-1], 2),
    "peak": round(max(running), 2),
    "by_kind": by_kind,
    "gaps_head": gaps[:5],
    "first_refund": first_refund,
    "leading_logins": leading_logins,
    "batches": [round(x, 2) for x in batches],
    "paired": paired,
    "labels": products,
    "mask": mask,
    "zero_amount": non_zero,
    "combos": combos,
}
