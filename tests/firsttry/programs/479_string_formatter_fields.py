# description: List the placeholders of a notification template with string.Formatter and fill them from the customer
# value: {"fields": ["name", "order[id]", "order[total]", "order[currency]", "status", "signoff"], "text": "Hi Grace, your order o-1005 of 70.50 EUR is 'pending'. Thanks", "vtext": "Grace Hopper <grace@example.com>", "positional": "Arlington / US"}
# limitation: string.Formatter is not in the string facade; the refusal says to use str.format
import string

template = "Hi {name}, your order {order[id]} of {order[total]:.2f} {order[currency]} is {status!r}. {signoff}"
formatter = string.Formatter()
fields = [field for _, field, _, _ in formatter.parse(template) if field]
customer = await tools.get_customer(customer_id="c2")
orders = await tools.list_orders(customer_id="c2")
order = orders[-1]
text = formatter.format(template, name=customer["name"].split()[0], order=order,
                        status=order["status"], signoff="Thanks")
vtext = formatter.vformat("{0} <{1}>", (customer["name"], customer["email"]), {})
positional = "{0[city]} / {0[country]}".format(customer["address"])
return {"fields": fields, "text": text, "vtext": vtext, "positional": positional}
