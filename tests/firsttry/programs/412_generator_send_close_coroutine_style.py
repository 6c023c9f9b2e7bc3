# description: Running totals with a generator-based accumulator (send, close, return value via StopIteration) and yield from
# value: {"running": [118.25, 339.12, 288.74, 227.81, 196.35, 178.46, 204.1, 190.78, 219.25, 224.12, 207.29], "final": [11, 2280.22], "delegated": [[4, 911.23]], "chunks": [["o-1001", "o-1002", "o-1003", "o-1004"], ["o-1005", "o-1006", "o-1007", "o-1008"], ["o-1009", "o-1010", "o-1011"]], "flat": [1, 2, 3, 4, 5, 6], "first_two": ["o-1001", "o-1002"], "closed": true}
def averager():
    total = 0.0
    count = 0
    average = None
    while True:
        value = yield average
        if value is None:
            break
        total += value
        count += 1
        average = total / count
    return (count, round(total, 2))


def delegate(results: list):
    result = yield from averager()
    results.append(result)


def chunks(seq, n):
    for i in range(0, len(seq), n):
        yield seq[i:i + n]


def flatten(tree):
    for item in tree:
        if isinstance(item, list):
            yield from flatten(item)
        else:
            yield item


orders = [await tools.get_order(order_id=f"o-10{i:02d}") for i in range(1, 12)]
acc = averager()
next(acc)
running = [round(acc.send(o["total"]), 2) for o in orders]
try:
    acc.send(None)
except StopIteration as stop:
    final = stop.value

results = []
d = delegate(results)
next(d)
for o in orders[:4]:
    d.send(o["total"])
try:
    d.send(None)
except StopIteration:
    pass

g = (o["id"] for o in orders)
first_two = [next(g), next(g)]
g.close()
try:
    next(g)
    closed = False
except StopIteration:
    closed = True

return {
    "running": running,
    "final": list(final),
    "delegated": [list(r) for r in results],
    "chunks": [[o["id"] for o in c] for c in chunks(orders, 4)],
    "flat": list(flatten([1, [2, [3, [4]], 5], [[6]]])),
    "first_two": first_two,
    "closed": closed,
}
