# description: Find how old each open order of c1 is
# value: {"today": "2024-06-15", "weekday": "Saturday", "ages": {"o-1001": 44, "o-1002": 5, "o-1003": 1}, "older_than_a_week": ["o-1001"]}
from datetime import datetime, date, timedelta

now = datetime.fromisoformat(await tools.current_time())
today = now.date()

orders = await tools.list_orders(customer_id="c1")
ages = {}
for order in orders:
    created = date.fromisoformat(order["created"])
    ages[order["id"]] = (today - created).days

overdue = [oid for oid, days in ages.items() if timedelta(days=days) > timedelta(weeks=1)]
return {
    "today": today.isoformat(),
    "weekday": today.strftime("%A"),
    "ages": ages,
    "older_than_a_week": overdue,
}
