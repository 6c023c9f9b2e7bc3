# description: Build a report with generator pipelines, yield from, send() and a running-average coroutine
# value: {"rows": 9, "running_tail": [223.81, 218.72], "final": 218.72, "seq": [1, 2, 1, 2], "first3": [["o-1001", "KB-01", 89.0], ["o-1001", "CB-05", 29.25], ["o-1002", "MN-27", 559.98]], "head": [0, 2, 4], "trace": ["closed"], "sum_gen": 1968.47}
from itertools import islice


def order_lines(orders):
    for o in orders:
        yield from ((o["id"], l) for l in o["lines"])


def priced(lines, min_total=0):
    for oid, l in lines:
        total = l["quantity"] * l["unit_price"]
        if total >= min_total:
            yield oid, l["sku"], round(total, 2)


def averager():
    total = 0.0
    n = 0
    avg = None
    while True:
        value = yield avg
        if value is None:
            return round(avg, 2) if avg is not None else None
        total += value
        n += 1
        avg = total / n


def numbered(start=1):
    n = start
    while True:
        reset = yield n
        n = start if reset else n + 1


orders = []
for cid in ("c1", "c4", "c6"):
    orders += await tools.list_orders(customer_id=cid)
rows = list(priced(order_lines(orders), min_total=50))
gen = averager()
next(gen)
running = [round(gen.send(t), 2) for _, _, t in rows]
try:
    gen.send(None)
except StopIteration as stop:
    final = stop.value

counter = numbered()
seq = [next(counter), next(counter), counter.send(True), next(counter)]
first3 = list(islice(priced(order_lines(orders)), 3))
lazy = (x * 2 for x in range(10**9))
head = [next(lazy) for _ in range(3)]


def closing():
    try:
        yield 1
        yield 2
    finally:
        trace.append("closed")


trace = []
g = closing()
next(g)
g.close()
return {"rows": len(rows), "running_tail": running[-2:], "final": final, "seq": seq, "first3": first3, "head": head, "trace": trace,
        "sum_gen": sum(t for *_, t in rows)}
