# description: Measure a batch of calls and format timestamps with the time module
# value: {"fast": true, "monotonic": true, "upper": ["LONDON", "PARIS"], "real": 3, "stamp": "1970-01-01", "year": 1971, "epoch_ok": true, "conds": ["rain", "cloudy"]}
import time
import operator

start = time.monotonic()
t0 = time.perf_counter()
cities = ["London", "Paris"]
weathers = [await tools.get_weather(city=c) for c in cities]
elapsed = time.perf_counter() - t0
upper = list(map(operator.methodcaller("upper"), cities))
get_city = operator.attrgetter("real")
stamp = time.strftime("%Y-%m-%d", time.gmtime(0))
struct = time.gmtime(86400 * 365)
epoch_ok = time.time() > 1_600_000_000
return {"fast": elapsed < 5, "monotonic": time.monotonic() >= start, "upper": upper, "real": get_city(3), "stamp": stamp, "year": struct.tm_year, "epoch_ok": epoch_ok, "conds": [operator.itemgetter("condition")(w) for w in weathers]}
