# description: Show that a tool's LookupError arrives as ToolCallError with its type
# value: {"caught_by": "ToolCallError", "detail": {"type": "LookupError", "is_lookup_type": true, "isinstance_lookup": false, "tool": "get_order"}}
caught_by = None
try:
    try:
        await tools.get_order(order_id="o-4040")
    except LookupError:
        caught_by = "LookupError"
except ToolCallError as e:
    caught_by = "ToolCallError"
    detail = {"type": e.type, "is_lookup_type": e.type == "LookupError",
              "isinstance_lookup": isinstance(e, LookupError), "tool": e.tool_name}
return {"caught_by": caught_by, "detail": detail}
