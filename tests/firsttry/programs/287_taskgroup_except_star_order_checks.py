# description: Validate every pending order concurrently and report all validation failures together
# value: {"problems": ["o-1002: status is shipped", "o-1005: only 0 of MS-02 for 2"], "lookups": ["get_order:LookupError"], "ok": ["o-1003", "o-1008", "o-1010"]}
# logs: ["2 problems, 1 lookup failures, 3 ok", " - o-1002: status is shipped", " - o-1005: only 0 of MS-02 for 2"]
import asyncio
from dataclasses import dataclass

@dataclass
class OrderProblem(Exception):
    order_id: str
    reason: str

    def __str__(self):
        return f"{self.order_id}: {self.reason}"

async def validate(order_id: str) -> Exception | None:
    try:
        order = await tools.get_order(order_id=order_id)
    except ToolCallError as e:
        return e
    if order["status"] != "pending":
        return OrderProblem(order_id, f"status is {order['status']}")
    stocks = await asyncio.gather(*(tools.get_stock(sku=l["sku"]) for l in order["lines"]))
    for line, stock in zip(order["lines"], stocks):
        if stock < line["quantity"]:
            return OrderProblem(order_id, f"only {stock} of {line['sku']} for {line['quantity']}")
    return None

ids = ["o-1003", "o-1005", "o-1008", "o-1010", "o-1002", "o-9999"]
async with asyncio.TaskGroup() as tg:
    tasks = {oid: tg.create_task(validate(oid)) for oid in ids}

ok = [oid for oid, t in tasks.items() if t.result() is None]
problems: list[str] = []
lookups: list[str] = []
try:
    failures = [t.result() for t in tasks.values() if t.result() is not None]
    if failures:
        raise ExceptionGroup("order validation failed", failures)
except* OrderProblem as group:
    problems = sorted(str(e) for e in group.exceptions)
except* ToolCallError as group:
    lookups = sorted(e.tool_name + ":" + (e.type or "?") for e in group.exceptions)

print(f"{len(problems)} problems, {len(lookups)} lookup failures, {len(ok)} ok")
for p in problems:
    print(" -", p)
return {"problems": problems, "lookups": lookups, "ok": ok}
