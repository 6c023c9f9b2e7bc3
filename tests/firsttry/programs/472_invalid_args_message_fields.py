# description: Send a wrong enum value to create_ticket, read the error fields, then retry with a valid one
# value: {"id": "T-101", "priority": "high", "status": "open"}
# logs: ["create_ticket failed with INVALID_ARGS"]
try:
    t = await tools.create_ticket(customer_id="c3", subject="Refund", priority="urgent")
except ToolCallError as e:
    print(f"{e.tool_name} failed with {e.code}")
    assert e.code == "INVALID_ARGS"
    assert "urgent" in str(e)
    t = await tools.create_ticket(customer_id="c3", subject="Refund", priority="high")
return {"id": t["id"], "priority": t["priority"], "status": t["status"]}
