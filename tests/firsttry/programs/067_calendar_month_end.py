# description: Count days left in the month for pending deliveries
# value: {"month": "June", "days_left": 15, "leap": true}
import calendar
from datetime import date

today = date.fromisoformat((await tools.current_time())[:10])
_, days_in_month = calendar.monthrange(today.year, today.month)
left = days_in_month - today.day
return {"month": calendar.month_name[today.month], "days_left": left, "leap": calendar.isleap(today.year)}
