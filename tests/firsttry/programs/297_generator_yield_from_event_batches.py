# description: Stream the audit log through generator stages to find refund bursts per customer
# value: {"batches": [7, 7, 6], "final": [47, 740.92], "lowest": [3, 111.99], "patterns": {"c1": "rpp", "c2": "pprp", "c3": "prp", "c4": "prpp", "c5": "rpp", "c6": "rpp"}}
# logs: ["20 money events in 3 batches; final balance 740.92"]
from itertools import islice

pages = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    pages.append(page["items"])
    if not (cursor := page["next_cursor"]):
        break

def flatten(pages):
    for items in pages:
        yield from items

def only(kinds, events):
    return (e for e in events if e["kind"] in kinds)

def batched(iterable, n):
    it = iter(iterable)
    while chunk := list(islice(it, n)):
        yield chunk

def running_total(events):
    total = 0.0
    for e in events:
        total += e["amount"] if e["kind"] == "purchase" else -e["amount"]
        yield e["id"], round(total, 2)

money = list(only({"purchase", "refund"}, flatten(pages)))
sizes = [len(b) for b in batched(money, 7)]
balance = list(running_total(money))
low = min(balance, key=lambda t: t[1])

def per_customer(events):
    seen = {}
    for e in events:
        seen.setdefault(e["customer_id"], []).append(e["kind"][0])
    yield from sorted(seen.items())

patterns = {cid: "".join(ks) for cid, ks in per_customer(money)}
print(f"{len(money)} money events in {len(sizes)} batches; final balance {balance[-1][1]:,.2f}")
return {"batches": sizes, "final": balance[-1], "lowest": list(low), "patterns": patterns}
