# description: Open tickets for pending high-value orders and escalate them with a severity from the total
# value: [["T-101", "normal", 3, "pager-primary"], ["T-102", "high", 3, "pager-primary"]]
escalations = []
for cid in ["c1", "c6"]:
    for order in await tools.list_orders(customer_id=cid, status="pending"):
        ticket = await tools.create_ticket(customer_id=cid, subject=f"Check pending {order['id']}", priority="high" if order["total"] > 200 else "normal")
        severity = 4 if order["total"] > 300 else 3 if order["total"] > 150 else 2
        esc = await tools.escalate_ticket(ticket_id=ticket["id"], severity=severity, note=f"total {order['total']}")
        escalations.append([ticket["id"], ticket["priority"], esc["severity"], esc["on_call"]])
return escalations
