# description: Group purchases per day and customer
# value: {"days": {"2024-06-10": {"c2": 185.99, "c4": 111.99}, "2024-06-11": {"c1": 44.99, "c2": 29.99, "c3": 170.99, "c6": 103.99}, "2024-06-12": {"c1": 88.99, "c5": 162.99}, "2024-06-13": {"c4": 21.99, "c5": 6.99, "c6": 147.99}, "2024-06-14": {"c2": 139.99, "c3": 80.99, "c4": 65.99}}, "best_day": "2024-06-11"}
from collections import defaultdict
from datetime import datetime

events = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events += page["items"]
    if not (cursor := page["next_cursor"]):
        break

per_day: defaultdict[str, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
for e in events:
    if e["kind"] != "purchase":
        continue
    day = datetime.fromisoformat(e["at"]).date().isoformat()
    per_day[day][e["customer_id"]] += e["amount"]

result = {day: {cid: round(v, 2) for cid, v in sorted(custs.items())} for day, custs in sorted(per_day.items())}
best_day = max(result, key=lambda d: sum(result[d].values()))
return {"days": result, "best_day": best_day}
