# description: Compute running revenue and process event ids in fixed-size batches with itertools
# value: {"n_purchases": 14, "running_last": 1363.86, "first_over_500": 3, "peak_tail": [185.99, 185.99, 185.99], "with_start": [10, 10, 20, 60], "batches": [55, 155, 255, 355, 308], "ids": [100, 105, 110, 115], "flat": [1, 2, 3], "pad": [["a", 1], ["b", 2], ["-", 3]], "cheap": 7, "grid": ["A1", "A2", "B1", "B2"], "rep": ["x", "x", "x"]}
from itertools import accumulate, islice, chain, count, repeat, takewhile, zip_longest, product
import operator


def batched(iterable, n):
    it = iter(iterable)
    while batch := tuple(islice(it, n)):
        yield batch


events = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events.extend(page["items"])
    if (cursor := page["next_cursor"]) is None:
        break

purchases = [e["amount"] for e in events if e["kind"] == "purchase"]
running = [round(x, 2) for x in accumulate(purchases)]
peak = list(accumulate(purchases, max))
with_start = list(accumulate([1, 2, 3], operator.mul, initial=10))
batches = [sum(b) for b in batched((e["id"] for e in events), 10)]
first_over_500 = next(i for i, total in enumerate(running) if total > 500)
ids = list(islice(count(100, 5), 4))
flat = list(chain.from_iterable([[1, 2], [3], []]))
pad = list(zip_longest("ab", [1, 2, 3], fillvalue="-"))
cheap = list(takewhile(lambda x: x < 100, sorted(purchases)))
grid = ["".join(p) for p in product("AB", "12")]
return {
    "n_purchases": len(purchases),
    "running_last": running[-1],
    "first_over_500": first_over_500,
    "peak_tail": peak[-3:],
    "with_start": with_start,
    "batches": batches,
    "ids": ids,
    "flat": flat,
    "pad": pad,
    "cheap": len(cheap),
    "grid": grid,
    "rep": list(repeat("x", 3)),
}
