# description: Cancel Edsger's pending orders if any
# value: {"customer": "c5", "cancelled": []}
# logs: ["No pending orders, nothing to do"]
customer = await tools.find_customer(email="edsger@example.com")
if customer is None:
    return {"error": "customer not found"}

pending = await tools.list_orders(customer_id=customer["id"], status="pending")
if not pending:
    print("No pending orders, nothing to do")
    return {"customer": customer["id"], "cancelled": []}

cancelled = []
for order in pending:
    result = await tools.cancel_order(order_id=order["id"])
    cancelled.append(result["order_id"])
return {"customer": customer["id"], "cancelled": cancelled}
