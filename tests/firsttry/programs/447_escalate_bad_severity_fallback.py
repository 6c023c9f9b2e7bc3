# description: Escalate with severity 5, read the INVALID_ARGS error, then clamp to the allowed maximum
# value: {"ticket_id": "T-101", "severity": 4, "on_call": "pager-primary"}
# logs: ["escalate_ticket refused: code=INVALID_ARGS"]
ticket = await tools.create_ticket(customer_id="c2", subject="Outage")
try:
    esc = await tools.escalate_ticket(ticket_id=ticket["id"], severity=5)
except ToolCallError as e:
    print(f"{e.tool_name} refused: code={e.code}")
    esc = await tools.escalate_ticket(ticket_id=ticket["id"], severity=4)
return esc
