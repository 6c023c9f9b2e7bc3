# description: Compose and send a wrapped delay notice
# value: {"receipt": "ntf-1", "preview": "Hello Grace, Your order o-1005 is...", "lines": 4}
import textwrap

customer = await tools.get_customer(customer_id="c2")
order = (await tools.list_orders(customer_id="c2", status="pending"))[0]

body = textwrap.dedent(f"""
    Hello {customer['name'].split()[0]},

    Your order {order['id']} is taking longer than expected. We are sorry for the delay and will let you know as soon as it ships.
""").strip()
wrapped = "\n".join(textwrap.fill(p, width=50) for p in body.split("\n\n"))
preview = textwrap.shorten(body, width=40, placeholder="...")
print(preview)

receipt = await tools.send_notification(to=customer["email"], message=wrapped)
return {"receipt": receipt["id"], "preview": preview, "lines": len(wrapped.splitlines())}
