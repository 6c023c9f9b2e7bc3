# description: A Template subclass with a % delimiter for an SMS body, plus its identifiers
# value: {"body": "Order o-1002 ships in 3 days to London", "ids": ["order", "days", "city"], "valid": true}
import string

class SmsTemplate(string.Template):
    delimiter = "%"

tpl = SmsTemplate("Order %order ships in %days days to %city")
order = await tools.get_order(order_id="o-1002")
customer = await tools.get_customer(customer_id=order["customer_id"])
body = tpl.substitute({"order": order["id"], "days": 3, "city": customer["address"]["city"]})
return {"body": body, "ids": tpl.get_identifiers(), "valid": tpl.is_valid()}
