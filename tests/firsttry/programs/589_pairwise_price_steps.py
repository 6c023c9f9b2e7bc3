# description: Compare consecutive forecast days with itertools.pairwise to find the biggest swing
# value: {"swings": [["2024-06-16", 1.5], ["2024-06-17", 1.5], ["2024-06-18", -3.0], ["2024-06-19", 1.5], ["2024-06-20", 1.5], ["2024-06-21", -3.0]], "biggest": ["2024-06-18", -3.0], "rain_running": [9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0], "peak": 17.5}
from itertools import pairwise, accumulate
import operator

days = await tools.forecast(city="London", days=7)
swings = [(b["date"], round(b["high"] - a["high"], 1)) for a, b in pairwise(days)]
biggest = max(swings, key=lambda s: abs(s[1]))
rain_running = list(accumulate((d["rain_mm"] for d in days), operator.add))
peak = list(accumulate((d["high"] for d in days), max))
return {"swings": swings, "biggest": biggest, "rain_running": rain_running, "peak": peak[-1]}
