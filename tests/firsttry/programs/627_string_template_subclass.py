# description: Fill notification templates with a Template subclass using a custom delimiter
# value: {"messages": [["ntf-1", "Hello Grace Hopper, your order o-1005 totals 70.50 EUR. %{unknown_field} 100%"]], "plain": "Grace owes 5EUR", "ids": ["name", "order_id", "total", "unknown_field"], "valid": true}
# logs: ["missing 'amount'"]
from string import Template

class MailTemplate(Template):
    delimiter = "%"
    idpattern = r"[a-z][a-z_]*"

body = MailTemplate("Hello %name, your order %order_id totals %total EUR. %{unknown_field} 100%%")
customer = await tools.get_customer(customer_id="c2")
orders = await tools.list_orders(customer_id="c2", status="pending")
messages = []
for o in orders:
    text = body.safe_substitute(name=customer["name"], order_id=o["id"], total=f"{o['total']:.2f}")
    r = await tools.send_notification(to=customer["email"], message=text)
    messages.append([r["id"], text])
plain = Template("$who owes ${amount}EUR")
try:
    plain.substitute(who="c2")
except KeyError as e:
    print("missing", e)
return {"messages": messages, "plain": plain.substitute({"who": "Grace", "amount": 5}),
        "ids": body.get_identifiers(), "valid": body.is_valid()}
