# description: Work out how long ago each of a customer's orders was placed
# value: {"now": "2024-06-15T09:30:00+00:00", "tz": "UTC", "ages": {"o-1007": 125, "o-1008": 3}}
from datetime import datetime, date
now = datetime.fromisoformat(await tools.current_time())
orders = await tools.list_orders(customer_id="c4")
ages = {o["id"]: (now.date() - date.fromisoformat(o["created"])).days for o in orders}
return {"now": now.isoformat(), "tz": str(now.tzinfo), "ages": ages}
