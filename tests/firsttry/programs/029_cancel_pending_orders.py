# description: Cancel all open orders of Margaret Hamilton
# value: {"cancelled": ["o-1010"], "refused": ["o-1009"], "refund_total": 268.0, "verified": true}
# logs: ["Could not cancel o-1009: tool \"cancel_order\" raised ValueError: order o-1009 is shipped and cannot be cancelled"]
orders = await tools.list_orders(customer_id="c6")

cancelled, refused = [], []
refund_total = 0.0
for order in orders:
    if order["status"] in ("delivered", "cancelled"):
        continue
    try:
        res = await tools.cancel_order(order_id=order["id"], reason="customer asked to close account")
        cancelled.append(res["order_id"])
        refund_total += res["refund"]
    except ToolCallError as err:
        refused.append(order["id"])
        print(f"Could not cancel {order['id']}: {err}")

after = await tools.get_order(order_id=cancelled[0]) if cancelled else None
return {
    "cancelled": cancelled,
    "refused": refused,
    "refund_total": round(refund_total, 2),
    "verified": after is not None and after["status"] == "cancelled",
}
