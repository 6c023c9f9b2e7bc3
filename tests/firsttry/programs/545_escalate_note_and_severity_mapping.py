# description: Open tickets and escalate them with severities mapped from priority
# value: [["T-101", "open", 4, "pager-primary"], ["T-102", "open", 2, "support-queue"], ["T-103", "open", 1, "support-queue"]]
severity_for = {"low": 1, "normal": 2, "high": 4}
out = []
for customer_id, priority in [("c1", "high"), ("c2", "normal"), ("c3", "low")]:
    ticket = await tools.create_ticket(customer_id=customer_id, subject=f"{priority} issue", priority=priority)
    if priority == "low":
        esc = await tools.escalate_ticket(ticket_id=ticket["id"], severity=severity_for[priority])
    else:
        esc = await tools.escalate_ticket(ticket_id=ticket["id"], severity=severity_for[priority],
                                          note=f"customer {customer_id}")
    out.append([ticket["id"], ticket["status"], esc["severity"], esc["on_call"]])
return out
