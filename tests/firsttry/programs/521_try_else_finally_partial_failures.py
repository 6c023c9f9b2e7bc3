# description: Cancel a list of orders with try/except/else/finally, counting outcomes and continuing after failures
# value: {"outcomes": {"cancelled": ["o-1003", "o-1005"], "refused": ["o-1001", "o-1003"], "missing": ["o-4040"]}, "attempted": 5, "refund_total": 258.5}
# logs: ["done o-1003", "o-1001: tool \"cancel_order\" raised ValueError: order o-1001 is delivered and cannot be cancelled", "done o-1001", "o-4040: tool \"cancel_order\" raised LookupError: no order with id 'o-4040'", "done o-4040", "done o-1005", "o-1003: tool \"cancel_order\" raised ValueError: order o-1003 is cancelled and cannot be cancelled", "done o-1003"]
outcomes = {"cancelled": [], "refused": [], "missing": []}
attempted = 0
refund_total = 0.0
log = []
for order_id in ["o-1003", "o-1001", "o-4040", "o-1005", "o-1003"]:
    try:
        attempted += 1
        result = await tools.cancel_order(order_id=order_id, reason="stock audit")
    except ToolCallError as exc:
        if exc.type == "LookupError":
            outcomes["missing"].append(order_id)
        elif exc.type == "ValueError":
            outcomes["refused"].append(order_id)
        else:
            raise
        log.append(f"{order_id}: {exc}")
    else:
        outcomes["cancelled"].append(result["order_id"])
        refund_total += result["refund"]
    finally:
        log.append(f"done {order_id}")
print(*log, sep="\n")
return {"outcomes": outcomes, "attempted": attempted, "refund_total": round(refund_total, 2)}
