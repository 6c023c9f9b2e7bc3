# description: Send a notification on an unsupported channel and fall back to email
# value: {"first": {"code": "INVALID_ARGS", "type": null, "lists_channels": true}, "fallback": {"id": "ntf-1", "to": "grace@example.com", "channel": "email", "status": "queued"}}
try:
    await tools.send_notification(to="grace@example.com", message="Your order shipped", channel="fax")
    first = "sent"
except ToolCallError as e:
    first = {"code": e.code, "type": e.type, "lists_channels": all(c in str(e) for c in ("email", "push", "sms"))}
receipt = await tools.send_notification(to="grace@example.com", message="Your order shipped")
return {"first": first, "fallback": receipt}
