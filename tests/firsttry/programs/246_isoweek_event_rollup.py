# description: Roll the event log up by ISO week and weekday
# value: {"weeks": {"2024-W24": {"starts": "2024-06-10", "ends": "Sun 16 Jun", "kinds": {"error": 7, "login": 13, "logout": 7, "purchase": 14, "refund": 6}}}, "purchases_by_weekday": {"Monday": 297.98, "Tuesday": 349.96, "Wednesday": 251.98, "Thursday": 176.97, "Friday": 286.97}}
# logs: ["fetched 15/47", "fetched 30/47", "fetched 45/47", "fetched 47/47"]
import calendar
from collections import Counter, defaultdict
from datetime import date, datetime

events = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=15)
    events += page["items"]
    print(f"fetched {len(events)}/{page['total']}")
    if not (cursor := page["next_cursor"]):
        break

weeks: defaultdict[tuple[int, int], Counter] = defaultdict(Counter)
weekday_amount: defaultdict[str, float] = defaultdict(float)
for e in events:
    at = datetime.fromisoformat(e["at"])
    iso = at.isocalendar()
    weeks[(iso.year, iso.week)][e["kind"]] += 1
    if e["kind"] == "purchase":
        weekday_amount[calendar.day_name[at.weekday()]] += e["amount"]

rollup = {}
for (year, week), kinds in sorted(weeks.items()):
    monday = date.fromisocalendar(year, week, 1)
    rollup[f"{year}-W{week:02d}"] = {
        "starts": monday.isoformat(),
        "ends": date.fromisocalendar(year, week, 7).strftime("%a %d %b"),
        "kinds": dict(sorted(kinds.items())),
    }
order = list(calendar.day_name)
return {
    "weeks": rollup,
    "purchases_by_weekday": {d: round(weekday_amount[d], 2) for d in sorted(weekday_amount, key=order.index)},
}
