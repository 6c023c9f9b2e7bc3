# description: Track running event statistics with a generator driven by send and yield from
# value: {"results": {"purchase": {"count": 14, "total": 1363.86}, "refund": {"count": 6, "total": 622.94}}, "last_avg": {"purchase": 97.42, "refund": 103.82}, "squares": [0, 1, 4, 9]}
def averager():
    total = 0.0
    count = 0
    average = None
    while True:
        value = yield average
        if value is None:
            return {"count": count, "total": round(total, 2)}
        total += value
        count += 1
        average = round(total / count, 2)

def collect(results, kind):
    result = yield from averager()
    results[kind] = result

def flatten(pages):
    for page in pages:
        yield from page["items"]

pages = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    pages.append(page)
    if not (cursor := page["next_cursor"]):
        break

results = {}
coros = {}
last = {}
for ev in flatten(pages):
    if ev["kind"] not in ("purchase", "refund"):
        continue
    if ev["kind"] not in coros:
        coros[ev["kind"]] = collect(results, ev["kind"])
        next(coros[ev["kind"]])
    last[ev["kind"]] = coros[ev["kind"]].send(ev["amount"])
for kind, co in coros.items():
    try:
        co.send(None)
    except StopIteration:
        pass
gen = (x * x for x in range(4))
return {"results": results, "last_avg": last, "squares": [next(gen), *gen]}
