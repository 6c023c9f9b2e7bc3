# description: Work out month boundaries, date ranges and weekdays for a report with date.replace and ordinals
# value: {"first": "2024-06-01", "last": "2024-06-30", "prev_last": "2024-05-31", "weekdays": ["2024-06-17", "2024-06-18", "2024-06-19", "2024-06-20", "2024-06-21"], "gaps": [533, 129, 474, 203, 253], "from_ordinal": "2024-09-23", "ctime": "Sat Jun 15 00:00:00 2024", "timetuple_yday": 167, "min_ok": true, "fmt": "15.06.24", "iso_fmt": true}
from datetime import date, timedelta

today = date.fromisoformat((await tools.current_time())[:10])
first = today.replace(day=1)
next_month = (first + timedelta(days=32)).replace(day=1)
last = next_month - timedelta(days=1)
prev_last = first - timedelta(days=1)

def daterange(start: date, stop: date, step: int = 1):
    for n in range(0, (stop - start).days, step):
        yield start + timedelta(days=n)

weekdays = [d.isoformat() for d in daterange(today, today + timedelta(days=7)) if d.weekday() < 5]
customers = await tools.list_customers()
signups = sorted(date.fromisoformat(c["signup_date"]) for c in customers)
gaps = [(b.toordinal() - a.toordinal()) for a, b in zip(signups, signups[1:])]
return {"first": first.isoformat(), "last": str(last), "prev_last": prev_last.isoformat(),
        "weekdays": weekdays, "gaps": gaps, "from_ordinal": date.fromordinal(today.toordinal() + 100).isoformat(),
        "ctime": today.ctime(), "timetuple_yday": today.timetuple().tm_yday, "min_ok": date.min < today < date.max,
        "fmt": format(today, "%d.%m.%y"), "iso_fmt": date(2024, 12, 30).isocalendar()[:2] == (2025, 1)}
