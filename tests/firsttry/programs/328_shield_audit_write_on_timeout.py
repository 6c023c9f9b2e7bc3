# description: Open support tickets for error events under a deadline without losing tickets already being created
# value: {"tickets": {"4": "T-101", "11": "T-102", "18": "T-103"}, "sync": "deferred", "customers": ["c1", "c2", "c3"]}
# logs: ["3 tickets for 3 error events; sync deferred"]
# limitation: asyncio.shield is not in the run_code asyncio facade
import asyncio

errors = [e for e in (await tools.list_events(page_size=20))["items"] if e["kind"] == "error"]
created: list[str] = []

async def open_ticket(event: dict) -> str:
    t = await tools.create_ticket(customer_id=event["customer_id"], subject=f"Error event #{event['id']}",
                                  priority="high" if event["id"] % 2 else "normal")
    created.append(t["id"])
    return t["id"]

async def slow_sync():
    await asyncio.sleep(3)

results = {}
for e in errors:
    task = asyncio.create_task(open_ticket(e))
    try:
        results[e["id"]] = await asyncio.wait_for(asyncio.shield(task), timeout=1)
    except TimeoutError:
        results[e["id"]] = await task

try:
    await asyncio.wait_for(asyncio.shield(slow_sync()), timeout=0.01)
    sync_state = "done"
except TimeoutError:
    sync_state = "deferred"

print(f"{len(created)} tickets for {len(errors)} error events; sync {sync_state}")
return {"tickets": results, "sync": sync_state, "customers": sorted({e["customer_id"] for e in errors})}
