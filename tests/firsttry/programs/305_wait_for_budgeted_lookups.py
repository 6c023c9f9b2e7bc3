# description: Look up stock, weather and docs under per-call time budgets and report which lookups met them
# value: {"stock": {"status": "ok", "value": 42}, "weather": {"status": "ok", "value": "sunny"}, "docs": {"status": "ok", "value": ["kb-4", "kb-3"]}, "legacy": {"status": "timeout", "value": null}, "cache": {"status": "ok", "value": "warm"}}
# logs: ["stock   ok      42", "weather ok      sunny", "docs    ok      ['kb-4', 'kb-3']", "legacy  timeout None", "cache   ok      warm"]
import asyncio

async def slow_lookup(seconds: float, value):
    await asyncio.sleep(seconds)
    return value

budgets = {
    "stock": (tools.get_stock(sku="HD-10"), 1.0),
    "weather": (tools.get_weather(city="Tokyo"), 1.0),
    "docs": (tools.search_docs(query="refund", limit=2), 1.0),
    "legacy": (slow_lookup(5, "never"), 0.05),
    "cache": (slow_lookup(0, "warm"), 0.5),
}

async def timed(name, coro, budget):
    try:
        return name, "ok", await asyncio.wait_for(coro, timeout=budget)
    except asyncio.TimeoutError:
        return name, "timeout", None
    except ToolCallError as e:
        return name, "error", e.code

results = await asyncio.gather(*(timed(n, c, b) for n, (c, b) in budgets.items()))
summary = {}
for name, status, value in results:
    if isinstance(value, list):
        value = [h["id"] for h in value]
    elif isinstance(value, dict):
        value = value.get("condition")
    summary[name] = {"status": status, "value": value}
    print(f"{name:<8}{status:<8}{value!s}")
return summary
