# description: Tag customers who spent over 500 EUR as big spenders
# value: {"tagged": ["c1", "c6"], "tags_of_first": ["vip", "beta", "big-spender"]}
import asyncio

customers = await tools.list_customers()
orders = await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers))

tagged = []
for customer, their_orders in zip(customers, orders):
    spent = sum(o["total"] for o in their_orders if o["status"] != "cancelled")
    if spent > 500:
        updated = await tools.tag_customer(customer_id=customer["id"], tags=["big-spender"])
        tagged.append(updated["id"])

check = await tools.get_customer(customer_id=tagged[0])
return {"tagged": tagged, "tags_of_first": check["tags"]}
