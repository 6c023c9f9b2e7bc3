# description: Gather more calls than may be in flight at once (the child holds the rest back)
# value: {"calls": 300, "cities": 3}
import asyncio

cities = ["Paris", "Oslo", "Tokyo"]
reports = await asyncio.gather(*(tools.get_weather(city=cities[i % 3]) for i in range(300)))
return {"calls": len(reports), "cities": len({r["city"] for r in reports})}
