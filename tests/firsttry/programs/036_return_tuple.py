# description: Find the warmest and coldest city
# value: ["Cairo", "Oslo"]
import asyncio

cities = ["Cairo", "Oslo", "Sydney", "Paris", "New York"]
weather = await asyncio.gather(*(tools.get_weather(city=c) for c in cities))
by_temp = sorted(weather, key=lambda w: w["celsius"])
warmest = by_temp[-1]["city"]
coldest = by_temp[0]["city"]
return warmest, coldest
