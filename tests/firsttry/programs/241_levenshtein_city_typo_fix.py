# description: Correct misspelt city names by edit distance before fetching the weather
# value: [{"asked": "Londn", "city": "London", "celsius": 14.5, "fixed": true, "edits": 1}, {"asked": "paris", "city": "Paris", "celsius": 18.0, "fixed": false}, {"asked": "Tokio", "city": "Tokyo", "celsius": 24.0, "fixed": true, "edits": 1}, {"asked": "Sidney", "city": "Sydney", "celsius": 17.5, "fixed": true, "edits": 1}, {"asked": "Nwe York", "city": "New York", "celsius": 21.0, "fixed": true, "edits": 2}, {"asked": "Atlantis", "error": "no close match"}, {"asked": "Osloo", "city": "Oslo", "celsius": 6.5, "fixed": true, "edits": 1}]
# logs: ["Londn     -> London (corrected)", "paris     -> Paris", "Tokio     -> Tokyo (corrected)", "Sidney    -> Sydney (corrected)", "Nwe York  -> New York (corrected)", "Atlantis  -> no close match", "Osloo     -> Oslo (corrected)"]
import asyncio
from functools import lru_cache

KNOWN = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "New York", "Sydney"]

def distance(a: str, b: str) -> int:
    @lru_cache(maxsize=None)
    def d(i: int, j: int) -> int:
        if i == 0:
            return j
        if j == 0:
            return i
        cost = 0 if a[i - 1] == b[j - 1] else 1
        return min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + cost)
    return d(len(a), len(b))

def correct(name: str) -> tuple[str, int] | None:
    best = min(KNOWN, key=lambda k: (distance(name.casefold(), k.casefold()), k))
    dist = distance(name.casefold(), best.casefold())
    return (best, dist) if dist <= max(1, len(best) // 3) else None

async def weather(name: str) -> dict:
    try:
        w = await tools.get_weather(city=name)
        return {"asked": name, "city": w["city"], "celsius": w["celsius"], "fixed": False}
    except ToolCallError as e:
        if e.type != "LookupError":
            raise
        if (fix := correct(name)) is None:
            return {"asked": name, "error": "no close match"}
        w = await tools.get_weather(city=fix[0])
        return {"asked": name, "city": w["city"], "celsius": w["celsius"], "fixed": True, "edits": fix[1]}

asked = ["Londn", "paris", "Tokio", "Sidney", "Nwe York", "Atlantis", "Osloo"]
rows = await asyncio.gather(*(weather(n) for n in asked))
for r in rows:
    label = r.get("city", r.get("error"))
    print(f"{r['asked']:<9} -> {label}{' (corrected)' if r.get('fixed') else ''}")
return rows
