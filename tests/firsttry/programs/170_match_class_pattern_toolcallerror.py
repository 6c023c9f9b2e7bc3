# description: Triage tool failures with class patterns on ToolCallError
# value: ["missing via get_customer", "bad days argument", "ok Paris 18.0", "send_notification: ValueError"]
import asyncio

calls = [
    tools.get_customer(customer_id="c404"),
    tools.forecast(city="Paris", days=30),
    tools.get_weather(city="Paris"),
    tools.send_notification(to="not-an-email", message="hi"),
]
results = await asyncio.gather(*calls, return_exceptions=True)
triage = []
for r in results:
    match r:
        case ToolCallError(type="LookupError", tool_name=name):
            triage.append(f"missing via {name}")
        case ToolCallError(type="ValueError") if "days" in str(r):
            triage.append("bad days argument")
        case ToolCallError(tool_name=name, type=kind):
            triage.append(f"{name}: {kind}")
        case {"city": city, "celsius": float() | int() as t}:
            triage.append(f"ok {city} {t}")
        case _:
            triage.append("unknown")
return triage
