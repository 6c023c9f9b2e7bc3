# description: Lay out an order summary email with textwrap
# value: {"receipt": "ntf-1", "lines": 10, "longest": 46}
# logs: ["Hello Margaret,", "", "Here is a summary of your 3 orders with us. We", "really appreciate your continued business and", "hope the products serve you well for years to", "come.", "", "  * o-1009: Noise-cancelling headset", "  * o-1010: Laptop stand, Mechanical [...]", "  * o-1011: USB-C hub"]
import textwrap

customer = await tools.get_customer(customer_id="c6")
orders = await tools.list_orders(customer_id="c6")
body = textwrap.dedent(f"""\
    Hello {customer['name'].split()[0]},

    Here is a summary of your {len(orders)} orders with us. We really appreciate your continued business and hope the products serve you well for years to come.
""")
paragraphs = [textwrap.fill(p, width=48) for p in body.split("\n\n")]
items = "\n".join(
    textwrap.shorten(f"{o['id']}: " + ", ".join(l["name"] for l in o["lines"]), width=40, placeholder=" [...]")
    for o in orders
)
message = "\n\n".join(paragraphs) + "\n\n" + textwrap.indent(items, "  * ")
receipt = await tools.send_notification(to=customer["email"], message=message)
print(message)
return {"receipt": receipt["id"], "lines": len(message.splitlines()), "longest": max(map(len, message.splitlines()))}
