# description: Enrich customers with a weather note, falling back when the enrichment step takes too long
# value: {"rows": [{"id": "c1", "city": "London", "note": "14\u00b0C rain", "timed_out": false}, {"id": "c2", "city": "Arlington", "note": "no weather data", "timed_out": false}, {"id": "c3", "city": "Manchester", "note": "no weather data", "timed_out": false}, {"id": "c4", "city": "Hampton", "note": "no weather data", "timed_out": false}, {"id": "c5", "city": "Eindhoven", "note": "no weather data", "timed_out": false}, {"id": "c6", "city": "Boston", "note": "weather unavailable", "timed_out": true}], "late": null, "timeouts": 1}
# logs: ["c1  London      14\u00b0C rain", "c2  Arlington   no weather data", "c3  Manchester  no weather data", "c4  Hampton     no weather data", "c5  Eindhoven   no weather data", "c6  Boston      weather unavailable"]
import asyncio

SLOW_CITIES = {"Boston"}

async def city_note(city: str) -> str:
    if city in SLOW_CITIES:
        await asyncio.sleep(2)
    try:
        w = await tools.get_weather(city=city)
    except ToolCallError:
        return "no weather data"
    return f"{w['celsius']:.0f}°C {w['condition']}"

async def enrich(customer: dict) -> dict:
    city = customer["address"]["city"]
    try:
        async with asyncio.timeout(0.2):
            note = await city_note(city)
        timed_out = False
    except TimeoutError:
        note, timed_out = "weather unavailable", True
    return {"id": customer["id"], "city": city, "note": note, "timed_out": timed_out}

customers = await tools.list_customers()
rows = await asyncio.gather(*(enrich(c) for c in customers))

try:
    late = await asyncio.wait_for(city_note("Boston"), timeout=0.05)
except asyncio.TimeoutError:
    late = None

for r in rows:
    print(f"{r['id']:<3} {r['city']:<11} {r['note']}")
return {"rows": rows, "late": late, "timeouts": sum(r["timed_out"] for r in rows)}
