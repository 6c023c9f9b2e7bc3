# description: Fetch order details for several customers in a task group and record what got cancelled when one failed
# value: {"errors": ["list_orders/LookupError: tool \"list_orders\" raised LookupError: no customer with id 'c7'"], "group_type": "ExceptionGroup", "count": 1, "finished": ["c1", "c2"], "cancelled": ["c4", "c6"], "states": {"c1": "done", "c2": "done", "c4": "cancelled", "c6": "cancelled", "c7": "error"}}
# logs: ["errors: ['list_orders/LookupError: tool \"list_orders\" raised LookupError: no customer with id \\'c7\\'']", "group_type: ExceptionGroup", "count: 1", "finished: ['c1', 'c2']", "cancelled: ['c4', 'c6']", "states: {'c1': 'done', 'c2': 'done', 'c4': 'cancelled', 'c6': 'cancelled', 'c7': 'error'}"]
import asyncio

finished: list[str] = []
cancelled: list[str] = []

async def load(cid: str, delay: float) -> list:
    try:
        await asyncio.sleep(delay)
        orders = await tools.list_orders(customer_id=cid)
        finished.append(cid)
        return orders
    except asyncio.CancelledError:
        cancelled.append(cid)
        raise

outcome = {}
try:
    async with asyncio.TaskGroup() as tg:
        t = {cid: tg.create_task(load(cid, d), name=f"load-{cid}")
             for cid, d in [("c1", 0), ("c2", 0), ("c7", 0.01), ("c4", 1.0), ("c6", 1.0)]}
except* ToolCallError as eg:
    outcome["errors"] = [f"{e.tool_name}/{e.type}: {e}" for e in eg.exceptions]
    outcome["group_type"] = type(eg).__name__
    outcome["count"] = len(eg.exceptions)

outcome["finished"] = sorted(finished)
outcome["cancelled"] = sorted(cancelled)
outcome["states"] = {name: ("cancelled" if task.cancelled() else "error" if task.exception() else "done")
                     for name, task in sorted(t.items())}
for k, v in outcome.items():
    print(f"{k}: {v}")
return outcome
