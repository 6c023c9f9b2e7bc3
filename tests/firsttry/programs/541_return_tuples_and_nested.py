# description: Return weather pairs as tuples which come back as lists
# value: {"pairs": [["Tokyo", [24.0, 55]], ["Sydney", [17.5, 68]]], "coldest": ["Sydney", [17.5, 68]]}
import asyncio
cities = ("Tokyo", "Sydney")
ws = await asyncio.gather(*(tools.get_weather(city=c) for c in cities))
pairs = tuple((w["city"], (w["celsius"], w["humidity"])) for w in ws)
return {"pairs": pairs, "coldest": min(pairs, key=lambda p: p[1][0])}
