# description: Compute 3-day moving averages and rolling alerts over forecasts with deque(maxlen)
# value: {"cities": {"London": {"avg": [16.0, 16.0, 16.0, 16.0, 16.0], "recent": ["sunny", "cloudy"], "rain_days": ["2024-06-15"]}, "Tokyo": {"avg": [25.5, 25.5, 25.5, 25.5, 25.5], "recent": ["sunny", "cloudy"], "rain_days": ["2024-06-15"]}, "Oslo": {"avg": [8.0, 8.0, 8.0, 8.0, 8.0], "recent": ["windy", "rain"], "rain_days": ["2024-06-17"]}}, "q": [-1, 3, 4, 5, 6], "q_maxlen": 5, "popped": [6, -1], "count": 1, "repr": "deque([1, 2], maxlen=3)"}
from collections import deque
from statistics import fmean

result = {}
for city in ("London", "Tokyo", "Oslo"):
    days = await tools.forecast(city=city, days=7)
    window = deque(maxlen=3)
    averages = []
    for d in days:
        window.append(d["high"])
        if len(window) == window.maxlen:
            averages.append(round(fmean(window), 2))
    recent = deque((d["condition"] for d in days), maxlen=2)
    last_events = deque(maxlen=4)
    for d in days:
        if d["rain_mm"]:
            last_events.appendleft(d["date"])
    result[city] = {"avg": averages, "recent": list(recent), "rain_days": list(last_events)}

q = deque(range(5), maxlen=5)
q.extend([5, 6])
q.rotate(-1)
q.appendleft(-1)
return {"cities": result, "q": list(q), "q_maxlen": q.maxlen, "popped": [q.pop(), q.popleft()], "count": q.count(4), "repr": repr(deque([1, 2], maxlen=3))}
