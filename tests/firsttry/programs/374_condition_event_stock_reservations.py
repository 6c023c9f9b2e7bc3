# description: Coordinate concurrent stock reservations with an asyncio.Condition, an Event and a Lock
# value: {"results": [true, true, true], "granted": {"alice": 2, "bob": 3, "carol": 1}, "stock": {"LP-14": 0, "MS-02": 0}, "log_len": 6, "locked": false}
# logs: ["waiters before open: True", "alice got 2 LP-14", "restock 2 LP-14", "restock 1 MS-02", "bob got 3 LP-14", "carol got 1 MS-02"]
import asyncio

stock = {p["sku"]: p["in_stock"] for p in await tools.list_products()}
cond = asyncio.Condition()
opened = asyncio.Event()
lock = asyncio.Lock()
log: list[str] = []
granted: dict[str, int] = {}


async def reserve(name: str, sku: str, qty: int) -> bool:
    await opened.wait()
    async with cond:
        ok = await asyncio.wait_for(cond.wait_for(lambda: stock[sku] >= qty or stock[sku] < 0), timeout=0.2)
        if stock[sku] >= qty:
            stock[sku] -= qty
            async with lock:
                granted[name] = granted.get(name, 0) + qty
            log.append(f"{name} got {qty} {sku}")
            return True
        return False


async def restock(sku: str, qty: int) -> None:
    await asyncio.sleep(0.01)
    async with cond:
        stock[sku] += qty
        log.append(f"restock {qty} {sku}")
        cond.notify_all()


tasks = [
    asyncio.create_task(reserve("alice", "LP-14", 2)),
    asyncio.create_task(reserve("bob", "LP-14", 3)),
    asyncio.create_task(reserve("carol", "MS-02", 1)),
]
restocker = asyncio.create_task(restock("LP-14", 2))
restock2 = asyncio.create_task(restock("MS-02", 1))
await asyncio.sleep(0)
log.append(f"waiters before open: {not opened.is_set()}")
opened.set()
results = await asyncio.gather(*tasks, return_exceptions=True)
await asyncio.gather(restocker, restock2)
print(*log, sep="\n")
return {
    "results": [r if isinstance(r, bool) else type(r).__name__ for r in results],
    "granted": dict(sorted(granted.items())),
    "stock": {k: stock[k] for k in ("LP-14", "MS-02")},
    "log_len": len(log),
    "locked": lock.locked(),
}
