# description: Bucket audit events by ISO week and weekday name using isocalendar and calendar.day_name
# value: {"weeks": ["2024-W24"], "by_day": {"Friday": 8, "Monday": 9, "Thursday": 10, "Tuesday": 10, "Wednesday": 10}, "first": "Monday 10 June 2024, 07:13", "iso_week": 24, "iso_weekday": 1, "abbr": ["Mon", "Tue", "Wed"], "n": 47}
import calendar
from collections import defaultdict
from datetime import datetime

events = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events.extend(page["items"])
    cursor = page["next_cursor"]
    if cursor is None:
        break
by_day = defaultdict(int)
weeks = set()
for e in events:
    at = datetime.fromisoformat(e["at"])
    year, week, weekday = at.isocalendar()
    weeks.add(f"{year}-W{week:02d}")
    by_day[calendar.day_name[at.weekday()]] += 1
first = datetime.fromisoformat(events[0]["at"])
iso = first.isocalendar()
return {"weeks": sorted(weeks), "by_day": dict(sorted(by_day.items())),
        "first": first.strftime("%A %d %B %Y, %H:%M"), "iso_week": iso.week, "iso_weekday": iso.weekday,
        "abbr": list(calendar.day_abbr)[:3], "n": len(events)}
