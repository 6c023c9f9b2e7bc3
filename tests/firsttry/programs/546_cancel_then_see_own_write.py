# description: Cancel pending orders, refuse the others, and read them back
# value: {"results": {"o-1005": {"refund": 70.5, "reason": "duplicate"}, "o-1009": {"error": "ValueError", "why": "order o-1009 is shipped and cannot be cancelled"}, "o-1006": {"error": "ValueError", "why": "order o-1006 is cancelled and cannot be cancelled"}}, "status_after": "cancelled", "c2_pending": []}
results = {}
for order_id in ["o-1005", "o-1009", "o-1006"]:
    try:
        c = await tools.cancel_order(order_id=order_id, reason="duplicate")
        results[order_id] = {"refund": c["refund"], "reason": c["reason"]}
    except ToolCallError as e:
        results[order_id] = {"error": e.type, "why": str(e).rsplit(": ", 1)[-1]}
after = await tools.get_order(order_id="o-1005")
pending = await tools.list_orders(customer_id="c2", status="pending")
return {"results": results, "status_after": after["status"], "c2_pending": [o["id"] for o in pending]}
