# description: Cancel pending orders above a threshold, notify customers and open tickets
# value: {"actions": [{"order": "o-1003", "receipt": "ntf-1", "ticket": "T-101", "priority": "high"}, {"order": "o-1010", "receipt": "ntf-2", "ticket": "T-102", "priority": "high"}], "refunded": "456.00", "c6_pending": []}
import asyncio
from decimal import Decimal

THRESHOLD = Decimal("100")
customers = await tools.list_customers()
pending_lists = await asyncio.gather(*(tools.list_orders(customer_id=c["id"], status="pending") for c in customers))
by_id = {c["id"]: c for c in customers}
actions = []
refunded = Decimal("0")
for orders in pending_lists:
    for order in orders:
        if Decimal(str(order["total"])) <= THRESHOLD:
            continue
        customer = by_id[order["customer_id"]]
        cancellation = await tools.cancel_order(order_id=order["id"], reason="over limit review")
        refunded += Decimal(str(cancellation["refund"]))
        receipt = await tools.send_notification(
            to=customer["email"],
            message=f"We cancelled {order['id']} and refunded €{cancellation['refund']:.2f}.",
        )
        ticket = await tools.create_ticket(
            customer_id=customer["id"],
            subject=f"Review cancelled order {order['id']}",
            priority="high" if customer["tier"] == "enterprise" else "normal",
        )
        actions.append({"order": order["id"], "receipt": receipt["id"], "ticket": ticket["id"], "priority": ticket["priority"]})
still_pending = [o["id"] for o in await tools.list_orders(customer_id="c6", status="pending")]
return {"actions": actions, "refunded": f"{refunded:.2f}", "c6_pending": still_pending}
