# description: Start a background poll task, cancel it once the data arrives, and check cancelled() and CancelledError handling
# value: {"customer": "Katherine Johnson", "outcome": "cancelled", "cancelled": true, "done": true, "cleanup": ["poller stopped"], "enough": true}
import asyncio

seen = []
cleanup = []

async def poll_events():
    cursor = None
    try:
        while True:
            page = await tools.list_events(cursor=cursor, page_size=5)
            seen.extend(e["id"] for e in page["items"])
            cursor = page["next_cursor"]
            if cursor is None:
                cursor = None
            await asyncio.sleep(0)
    except asyncio.CancelledError:
        cleanup.append("poller stopped")
        raise

poller = asyncio.create_task(poll_events())
customer = await tools.get_customer(customer_id="c4")
while len(seen) < 10:
    await asyncio.sleep(0)
poller.cancel()
try:
    await poller
    outcome = "finished"
except asyncio.CancelledError:
    outcome = "cancelled"
return {"customer": customer["name"], "outcome": outcome, "cancelled": poller.cancelled(), "done": poller.done(),
        "cleanup": cleanup, "enough": len(seen) >= 10}
