# description: Fetch weather for many cities concurrently with a semaphore, wait_for timeouts and gather(return_exceptions=True)
# value: {"ok": {"London": 14.5, "Paris": 18.0, "Oslo": 6.5, "Tokyo": 24.0, "Cairo": 33.5, "Sydney": 17.5}, "failed": {"Atlantis": "ToolCallError: tool \"get_weather\" raised LookupError: unknown city 'Atlantis'; known cities: Cairo, London, New York, Oslo, Paris, Sydney, Tokyo", "El Dorado": "ToolCallError: tool \"get_weather\" raised LookupError: unknown city 'El Dorado'; known cities: Cairo, London, New York, Oslo, Paris, Sydney, Tokyo"}, "peak_ok": true}
# logs: ["6 ok, 2 failed, warmest Cairo"]
import asyncio

CITIES = ["London", "Paris", "Atlantis", "Oslo", "Tokyo", "Cairo", "El Dorado", "Sydney"]
sem = asyncio.Semaphore(3)
active = 0
peak = 0


async def fetch(city: str) -> dict:
    global active, peak
    async with sem:
        active += 1
        peak = max(peak, active)
        try:
            return await asyncio.wait_for(tools.get_weather(city=city), timeout=5)
        finally:
            active -= 1


results = await asyncio.gather(*(fetch(c) for c in CITIES), return_exceptions=True)
ok, failed = {}, {}
for city, r in zip(CITIES, results):
    if isinstance(r, BaseException):
        failed[city] = f"{type(r).__name__}: {r}"
    else:
        ok[city] = r["celsius"]

warmest = max(ok, key=ok.get)
print(f"{len(ok)} ok, {len(failed)} failed, warmest {warmest}")
return {"ok": ok, "failed": failed, "peak_ok": peak <= 3}
