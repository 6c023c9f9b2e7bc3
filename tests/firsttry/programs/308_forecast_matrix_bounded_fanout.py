# description: Build a city by day temperature matrix from forecasts fetched with bounded concurrency
# value: {"peak_ok": true, "calls": 8, "missing": {"Atlantis": "LookupError"}, "warmest": ["Cairo", "Cairo", "Cairo", "Cairo", "Cairo"], "rainy": ["London", "New York", "Oslo", "Paris", "Tokyo"]}
# logs: ["          Sat15  Sun16  Mon17  Tue18  Wed19", "   Cairo  33.5   35.0   36.5*  33.5   35.0 ", "   Tokyo  24.0*  25.5   27.0   24.0   25.5*", "New York  21.0*  22.5   24.0   21.0   22.5*", "   Paris  18.0   19.5   21.0*  18.0   19.5 ", "  Sydney  17.5*  19.0   20.5   17.5*  19.0 ", "  London  14.5*  16.0   17.5   14.5   16.0*", "    Oslo   6.5    8.0    9.5*   6.5    8.0 "]
import asyncio
from datetime import date

CITIES = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "New York", "Sydney", "Atlantis"]
DAYS = 5
limit = asyncio.Semaphore(3)
stats = {"in_flight": 0, "peak": 0, "calls": 0}

async def fetch(city: str):
    async with limit:
        stats["in_flight"] += 1
        stats["calls"] += 1
        stats["peak"] = max(stats["peak"], stats["in_flight"])
        try:
            return city, await tools.forecast(city=city, days=DAYS)
        except ToolCallError as e:
            return city, e
        finally:
            stats["in_flight"] -= 1

pairs = await asyncio.gather(*(fetch(c) for c in CITIES))
matrix = {c: f for c, f in pairs if not isinstance(f, Exception)}
missing = {c: f.type for c, f in pairs if isinstance(f, Exception)}

dates = [date.fromisoformat(d["date"]) for d in next(iter(matrix.values()))]
name_w = max(map(len, matrix))
print(" " * name_w + " " + " ".join(f"{d:%a%d}".rjust(6) for d in dates))
for city, days in sorted(matrix.items(), key=lambda kv: -max(d["high"] for d in kv[1])):
    cells = " ".join(f"{d['high']:>5.1f}{'*' if d['condition'] == 'rain' else ' '}" for d in days)
    print(f"{city:>{name_w}} {cells}")

warmest_each_day = [max(matrix, key=lambda c: (matrix[c][i]["high"], c)) for i in range(DAYS)]
rainy = sorted(c for c, days in matrix.items() if any(d["rain_mm"] > 0 for d in days))
return {"peak_ok": stats["peak"] <= 3, "calls": stats["calls"], "missing": missing,
        "warmest": warmest_each_day, "rainy": rainy}
