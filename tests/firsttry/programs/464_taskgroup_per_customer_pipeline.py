# description: With a TaskGroup, for each enterprise customer fetch orders then weather at their city
# value: {"c1": {"orders": 3, "city": "London", "sky": "rain"}, "c6": {"orders": 3, "city": "Boston", "sky": "n/a (LookupError)"}}
import asyncio
results = {}

async def profile(c):
    orders = await tools.list_orders(customer_id=c["id"])
    try:
        weather = await tools.get_weather(city=c["address"]["city"])
        sky = weather["condition"]
    except ToolCallError as e:
        sky = f"n/a ({e.type})"
    results[c["id"]] = {"orders": len(orders), "city": c["address"]["city"], "sky": sky}

async with asyncio.TaskGroup() as tg:
    for c in await tools.list_customers(tier="enterprise"):
        tg.create_task(profile(c))
return dict(sorted(results.items()))
