# description: Check stock in parallel, stopping as soon as any SKU lookup fails, and clean up the rest
# value: {"ok": {"KB-01": 14, "MN-27": 6}, "failed": {"NOPE-1": "LookupError"}, "cancelled": ["CB-05", "HS-07"], "cleanup": ["CB-05", "HS-07"]}
# logs: ["done=3 pending=2"]
import asyncio

cleanup: list[str] = []

async def check(sku: str, delay: float) -> tuple[str, int]:
    try:
        await asyncio.sleep(delay)
        return sku, await tools.get_stock(sku=sku)
    except asyncio.CancelledError:
        cleanup.append(sku)
        raise

plan = [("KB-01", 0.0), ("NOPE-1", 0.05), ("MN-27", 0.0), ("HS-07", 0.5), ("CB-05", 0.6)]
tasks = [asyncio.create_task(check(sku, d), name=sku) for sku, d in plan]
done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
for t in pending:
    t.cancel()
await asyncio.gather(*pending, return_exceptions=True)

ok, failed = {}, {}
for t in tasks:
    if t.cancelled():
        continue
    if (exc := t.exception()) is not None:
        failed[t.get_name()] = exc.type if isinstance(exc, ToolCallError) else type(exc).__name__
    else:
        sku, n = t.result()
        ok[sku] = n
print(f"done={len(done)} pending={len(pending)}")
return {"ok": ok, "failed": failed, "cancelled": sorted(t.get_name() for t in tasks if t.cancelled()),
        "cleanup": sorted(cleanup)}
