# description: Async comprehensions with await inside and an async generator filter
# value: {"warm": {"Paris": 18.0, "Tokyo": 24.0, "Cairo": 33.5}, "stock": [14, 6], "conditions": {"London": "rain", "Paris": "cloudy"}}
async def warm_cities(cities):
    for city in cities:
        w = await tools.get_weather(city=city)
        if w["celsius"] >= 18:
            yield city, w["celsius"]

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo"]
warm = {city: temp async for city, temp in warm_cities(cities)}
stock = [await tools.get_stock(sku=s) for s in ["KB-01", "MN-27"]]
conditions = {c: (await tools.get_weather(city=c))["condition"] for c in cities[:2]}
return {"warm": warm, "stock": stock, "conditions": conditions}
