# description: Cancel stale pending orders over 100 EUR and notify their customers
# value: {"cancelled": [], "skipped": [["o-1003", "age 1, total 188.0"], ["o-1005", "age 2, total 70.5"], ["o-1008", "age 3, total 97.5"], ["o-1010", "age 0, total 268.0"]], "notified": [], "status_after": null}
import asyncio
from datetime import datetime, timezone

now = datetime.fromisoformat(await tools.current_time())
customers = await tools.list_customers()
pending_lists = await asyncio.gather(*(tools.list_orders(customer_id=c["id"], status="pending") for c in customers))
by_id = {c["id"]: c for c in customers}
cancelled, skipped, notified = [], [], []
for orders in pending_lists:
    for o in orders:
        age = (now - datetime.fromisoformat(o["created"]).replace(tzinfo=timezone.utc)).days
        if o["total"] > 100 and age >= 2:
            try:
                res = await tools.cancel_order(order_id=o["id"], reason=f"pending {age} days")
            except ToolCallError as e:
                skipped.append((o["id"], str(e)))
                continue
            cancelled.append({"id": res["order_id"], "refund": res["refund"]})
            cust = by_id[o["customer_id"]]
            r = await tools.send_notification(to=cust["email"], message=f"Order {o['id']} was cancelled; {res['refund']:.2f} EUR refunded.")
            notified.append(r["to"])
        else:
            skipped.append((o["id"], f"age {age}, total {o['total']}"))
after = await tools.get_order(order_id=cancelled[0]["id"]) if cancelled else None
return {"cancelled": cancelled, "skipped": skipped, "notified": notified, "status_after": after["status"] if after else None}
