# description: Render the forecast month as a calendar grid and mark forecast days with calendar.monthcalendar
# value: {"grid": ["  .   .   .   .   .  1   2 ", " 3   4   5   6   7   8   9 ", "10  11  12  13  14  15S 16C", "17R 18C 19S 20  21  22  23 ", "24  25  26  27  28  29  30 "], "first_weekday": "Saturday", "n_days": 30, "header": "June 2024", "month": "June", "leap": [false, true, false], "leapdays": 7, "weekday_of_25th": 1}
# limitation: calendar.TextCalendar is not in the calendar facade; the refusal names calendar.month
import calendar

days = await tools.forecast(city="Paris", days=5)
year, month = (int(x) for x in days[0]["date"].split("-")[:2])
marked = {int(d["date"][-2:]): d["condition"][0].upper() for d in days}
grid = []
for week in calendar.monthcalendar(year, month):
    grid.append(" ".join(
        "  ." if d == 0 else f"{d:2d}{marked.get(d, ' ')}" for d in week
    ))
first_weekday, n_days = calendar.monthrange(year, month)
text = calendar.TextCalendar(firstweekday=calendar.MONDAY).formatmonth(year, month)
return {"grid": grid, "first_weekday": calendar.day_name[first_weekday], "n_days": n_days,
        "header": text.splitlines()[0].strip(), "month": calendar.month_name[month],
        "leap": [calendar.isleap(y) for y in (2023, 2024, 2100)], "leapdays": calendar.leapdays(2000, 2025),
        "weekday_of_25th": calendar.weekday(year, month, 25)}
