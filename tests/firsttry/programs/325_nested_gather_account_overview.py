# description: Build an account overview for several customers, fetching profile, orders and weather for each in parallel
# value: {"rows": [{"id": "c1", "name": "Ada Lovelace", "orders": 3, "pending_lines_short": 0, "local": "rain 14.5\u00b0C"}, {"id": "c2", "name": "Grace Hopper", "orders": 2, "pending_lines_short": 1, "local": "n/a (LookupError)"}, {"id": "c4", "name": "Katherine Johnson", "orders": 2, "pending_lines_short": 0, "local": "n/a (LookupError)"}, {"id": "c5", "name": "Edsger Dijkstra", "orders": 0, "pending_lines_short": 0, "local": "n/a (LookupError)"}], "failed": {"c9": "ToolCallError: tool \"get_customer\" raised LookupError: no customer with id 'c9'"}}
# logs: ["c1 Ada Lovelace       orders=3 short=0 rain 14.5\u00b0C", "c2 Grace Hopper       orders=2 short=1 n/a (LookupError)", "c4 Katherine Johnson  orders=2 short=0 n/a (LookupError)", "c5 Edsger Dijkstra    orders=0 short=0 n/a (LookupError)"]
import asyncio

async def overview(cid: str) -> dict:
    customer, orders = await asyncio.gather(
        tools.get_customer(customer_id=cid),
        tools.list_orders(customer_id=cid),
    )
    weather_task = asyncio.create_task(tools.get_weather(city=customer["address"]["city"]))
    stock_levels = await asyncio.gather(
        *(tools.get_stock(sku=l["sku"]) for o in orders if o["status"] == "pending" for l in o["lines"]),
        return_exceptions=True,
    )
    try:
        weather = await weather_task
        local = f"{weather['condition']} {weather['celsius']}°C"
    except ToolCallError as e:
        local = f"n/a ({e.type})"
    return {"id": cid, "name": customer["name"], "orders": len(orders),
            "pending_lines_short": sum(1 for s in stock_levels if isinstance(s, int) and s == 0),
            "local": local}

ids = ["c1", "c2", "c4", "c5", "c9"]
results = await asyncio.gather(*(overview(c) for c in ids), return_exceptions=True)
rows, failed = [], {}
for cid, r in zip(ids, results):
    if isinstance(r, BaseException):
        failed[cid] = f"{type(r).__name__}: {r}"
    else:
        rows.append(r)
for r in rows:
    print(f"{r['id']} {r['name']:<18} orders={r['orders']} short={r['pending_lines_short']} {r['local']}")
return {"rows": rows, "failed": failed}
