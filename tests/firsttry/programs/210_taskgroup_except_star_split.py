# description: Fetch weather for many cities in a TaskGroup and handle the failures with except*
# value: {"results": {"Cairo": 33.5, "London": 14.5, "Tokyo": 24.0}, "failures": ["LookupError", "LookupError"], "n_group": 2, "split": [2, 1], "handled": [["value", 2], ["key", ["'b'"]]], "sub": ["KeyError"], "msg": "validation (3 sub-exceptions)"}
import asyncio

cities = ["London", "Atlantis", "Tokyo", "El Dorado", "Cairo"]
results = {}
failures = []
fetched = asyncio.Event()
pending = [len(cities)]


async def fetch(city):
    try:
        w = await tools.get_weather(city=city)
        results[city] = w["celsius"]
    finally:
        # Let every fetch finish before a failure cancels the rest of the group.
        pending[0] -= 1
        if pending[0] == 0:
            fetched.set()
        await fetched.wait()


try:
    async with asyncio.TaskGroup() as tg:
        for c in cities:
            tg.create_task(fetch(c), name=f"weather-{c}")
except* ToolCallError as eg:
    failures = sorted(e.type for e in eg.exceptions)
    n_group = len(eg.exceptions)

err = ExceptionGroup("validation", [ValueError("a"), KeyError("b"), ValueError("c")])
vals, rest = err.split(ValueError)
handled = []
try:
    raise err
except* ValueError as g:
    handled.append(("value", len(g.exceptions)))
except* KeyError as g:
    handled.append(("key", [str(e) for e in g.exceptions]))

sub = err.subgroup(lambda e: isinstance(e, KeyError))
return {
    "results": dict(sorted(results.items())),
    "failures": failures,
    "n_group": n_group,
    "split": [len(vals.exceptions), len(rest.exceptions)],
    "handled": handled,
    "sub": [type(e).__name__ for e in sub.exceptions],
    "msg": str(err),
}
