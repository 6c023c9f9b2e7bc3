# description: Smooth a week of forecast highs with a moving window
# value: {"avg": {"London": [16.0, 16.0, 16.0, 16.0, 16.0], "Cairo": [35.0, 35.0, 35.0, 35.0, 35.0]}, "rotated": [-1, 3, 4, 0, 1, 2, 9, 9], "first3": [-1, 3, 4], "count9": 2}
from collections import deque
from itertools import islice

async def smoothed(city: str, window: int = 3):
    days = await tools.forecast(city=city, days=7)
    buf: deque[float] = deque(maxlen=window)
    out = []
    for d in days:
        buf.append(d["high"])
        if len(buf) == buf.maxlen:
            out.append(round(sum(buf) / len(buf), 2))
    return out

result = {city: await smoothed(city) for city in ("London", "Cairo")}
d = deque(range(5))
d.rotate(2)
d.appendleft(-1)
d.extend([9, 9])
return {"avg": result, "rotated": list(d), "first3": list(islice(d, 3)), "count9": d.count(9)}
