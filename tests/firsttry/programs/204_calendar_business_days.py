# description: Plan delivery dates skipping weekends and holidays using calendar
# value: {"today": "Saturday", "eta": {"o-1003": "2024-06-20", "o-1005": "2024-06-20", "o-1010": "2024-06-20"}, "june": ["June", "Sat", 30, 20], "feb_weeks": 5, "feb_last_week": [26, 27, 28, 29, 0, 0, 0], "fridays": [7, 14, 21, 28], "leap": [true, 7], "month_text_lines": 7, "timegm": 1718409600}
import calendar
from datetime import date, timedelta

HOLIDAYS = {date(2024, 6, 17), date(2024, 12, 25), date(2024, 12, 26)}


def add_business_days(start, n):
    d = start
    while n:
        d += timedelta(days=1)
        if d.weekday() < 5 and d not in HOLIDAYS:
            n -= 1
    return d


today = date.fromisoformat((await tools.current_time())[:10])
pending = []
for cid in ("c1", "c2", "c6"):
    pending += await tools.list_orders(customer_id=cid, status="pending")
eta = {o["id"]: add_business_days(max(today, date.fromisoformat(o["created"])), 3).isoformat() for o in pending}

first_weekday, ndays = calendar.monthrange(2024, 6)
workdays = sum(1 for d in range(1, ndays + 1) if calendar.weekday(2024, 6, d) < 5)
cal = calendar.Calendar(firstweekday=calendar.MONDAY)
weeks = cal.monthdayscalendar(2024, 2)
fridays = [d for d in cal.itermonthdates(2024, 6) if d.month == 6 and d.weekday() == calendar.FRIDAY]
return {
    "today": calendar.day_name[today.weekday()],
    "eta": eta,
    "june": [calendar.month_name[6], calendar.day_abbr[first_weekday], ndays, workdays],
    "feb_weeks": len(weeks),
    "feb_last_week": weeks[-1],
    "fridays": [d.day for d in fridays],
    "leap": [calendar.isleap(2024), calendar.leapdays(2000, 2025)],
    "month_text_lines": len(calendar.month(2024, 6).splitlines()),
    "timegm": calendar.timegm((2024, 6, 15, 0, 0, 0)),
}
