# description: Find refund and error events in a range and handle a reversed range
# value: {"refunds": [13, 20, 27, 34], "errors": [11, 18, 25, 32, 39], "reversed": {"type": "ValueError", "tool": "events_between"}, "refund_days_on_first_page": ["2024-06-11", "2024-06-12"]}
import asyncio
base = {"from": "2024-06-11", "to": "2024-06-13"}
refunds, errors = await asyncio.gather(
    tools.events_between({**base, "kinds": ["refund"]}),
    tools.events_between({**base, "kinds": ["error"]}),
)
try:
    await tools.events_between({"from": "2024-06-14", "to": "2024-06-10"})
    reversed_range = "accepted"
except ToolCallError as e:
    reversed_range = {"type": e.type, "tool": e.tool_name}
page = await tools.list_events(page_size=20)
at = {e["id"]: e["at"][:10] for e in page["items"]}
return {"refunds": refunds["ids"], "errors": errors["ids"], "reversed": reversed_range,
        "refund_days_on_first_page": sorted({at[i] for i in refunds["ids"] if i in at})}
