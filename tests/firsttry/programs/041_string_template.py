# description: Send templated shipping notices
# value: {"notices": ["Hi Ada, order o-1002 (2 items) is on its way!", "Hi Margaret, order o-1009 (3 items) is on its way!"], "digits": "10021009"}
import string

template = string.Template("Hi $first, order $order ($count items) is on its way!")

notices = []
for customer_id in ["c1", "c6"]:
    customer = await tools.get_customer(customer_id=customer_id)
    for order in await tools.list_orders(customer_id=customer_id, status="shipped"):
        msg = template.substitute(
            first=customer["name"].split()[0],
            order=order["id"],
            count=sum(l["quantity"] for l in order["lines"]),
        )
        receipt = await tools.send_notification(to=customer["email"], message=msg)
        notices.append(msg)

codes = "".join(c for c in "o-1002 o-1009".upper() if c in string.digits)
return {"notices": notices, "digits": codes}
