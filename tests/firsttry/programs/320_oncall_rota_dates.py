# description: Draft a two-week on-call rota starting next Monday, skipping days with open high-priority incidents
# value: {"start": "2024-06-17", "start_name": "Monday", "end": "Friday 28 June 2024", "days": 8, "load": {"Ada": 3, "Grace": 3, "Edsger": 2}, "weeks": ["2024-W25", "2024-W26"], "day_of_year": 169, "handover": "17:30 on 17/06", "month_days": 30}
# logs: ["2024-W25: Mon 17=Ada, Tue 18=Grace, Thu 20=Edsger, Fri 21=Ada", "2024-W26: Mon 24=Grace, Wed 26=Edsger, Thu 27=Ada, Fri 28=Grace"]
from datetime import date, datetime, timedelta
import calendar
import itertools

now = datetime.fromisoformat(await tools.current_time())
start = now.date() + timedelta(days=(7 - now.weekday()) % 7 or 7)
engineers = ["Ada", "Grace", "Edsger"]
blackout = {date(2024, 6, 19), date(2024, 6, 25)}

rota = []
people = itertools.cycle(engineers)
day = start
while day < start + timedelta(weeks=2):
    if day.weekday() < 5 and day not in blackout:
        rota.append((day, next(people)))
    day += timedelta(days=1)

by_week = {}
for d, who in rota:
    y, w, _ = d.isocalendar()
    by_week.setdefault(f"{y}-W{w:02d}", []).append(f"{d:%a %d}={who}")

for week, slots in by_week.items():
    print(f"{week}: " + ", ".join(slots))
load = {e: sum(1 for _, w in rota if w == e) for e in engineers}
end = rota[-1][0]
parsed = datetime.strptime("2024-06-17 08:00", "%Y-%m-%d %H:%M")
return {
    "start": start.isoformat(), "start_name": calendar.day_name[start.weekday()],
    "end": f"{end:%A %d %B %Y}", "days": len(rota), "load": load, "weeks": list(by_week),
    "day_of_year": int(f"{start:%j}"), "handover": (parsed + timedelta(hours=9, minutes=30)).strftime("%H:%M on %d/%m"),
    "month_days": calendar.monthrange(start.year, start.month)[1],
}
