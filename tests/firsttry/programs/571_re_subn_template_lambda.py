# description: Fill {placeholders} in a message template with re.subn and a lambda
# value: {"message": "Hi Grace, your 1 pending order(s) total 70.50 EUR. {unknown}", "replaced": 4}
import re

customer = await tools.get_customer(customer_id="c2")
orders = await tools.list_orders(customer_id="c2", status="pending")
template = "Hi {name}, your {count} pending order(s) total {total} EUR. {unknown}"
values = {"name": customer["name"].split()[0], "count": len(orders),
          "total": f"{sum(o['total'] for o in orders):.2f}"}
message, n = re.subn(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)
return {"message": message, "replaced": n}
