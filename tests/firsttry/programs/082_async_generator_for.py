# description: Page through customers with an async generator
# value: {"big": {"Ada Lovelace": ["o-1002"], "Katherine Johnson": ["o-1007"], "Margaret Hamilton": ["o-1009", "o-1010"]}, "pro": ["Grace Hopper", "Katherine Johnson"], "counts": {"Ada Lovelace": 3, "Margaret Hamilton": 3}}
async def customers_with_orders(tier=None):
    for c in await tools.list_customers(tier=tier):
        orders = await tools.list_orders(customer_id=c["id"])
        yield c["name"], orders

async def only_big(source, threshold):
    async for name, orders in source:
        big = [o["id"] for o in orders if o["total"] > threshold]
        if big:
            yield name, big

result = {}
async for name, big in only_big(customers_with_orders(), 200):
    result[name] = big

pro_names = [name async for name, _ in customers_with_orders("pro")]
counts = {name: len(orders) async for name, orders in customers_with_orders("enterprise")}
return {"big": result, "pro": pro_names, "counts": counts}
