# description: Wrap risky lookups in an async context manager that logs and swallows ToolCallError
# value: {"found": {"c1": "ada@example.com", "c4": "katherine@example.com"}, "errors": [{"what": "c9", "type": "LookupError", "tool": "get_customer"}]}
# logs: ["2 found, 1 failed"]
from contextlib import asynccontextmanager

errors = []

@asynccontextmanager
async def tolerant(what):
    try:
        yield
    except ToolCallError as e:
        errors.append({"what": what, "type": e.type, "tool": e.tool_name})

found = {}
for cid in ["c1", "c9", "c4"]:
    async with tolerant(cid):
        found[cid] = (await tools.get_customer(customer_id=cid))["email"]
print(f"{len(found)} found, {len(errors)} failed")
return {"found": found, "errors": errors}
