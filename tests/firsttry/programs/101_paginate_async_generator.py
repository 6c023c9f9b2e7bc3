# description: Stream events through an async generator and filter refunds
# value: {"refund_ids": [6, 13, 20, 27, 34, 41], "refund_total": 622.94, "big_purchases": {"5": 185.99, "10": 170.99, "26": 162.99}}
from typing import AsyncIterator

async def iter_events(page_size: int = 7) -> AsyncIterator[dict]:
    cursor: str | None = None
    while True:
        page = await tools.list_events(cursor=cursor, page_size=page_size)
        for item in page["items"]:
            yield item
        if (cursor := page["next_cursor"]) is None:
            return

refunds = [e async for e in iter_events() if e["kind"] == "refund"]
big_purchases = {e["id"]: e["amount"] async for e in iter_events(page_size=15) if e["kind"] == "purchase" and e["amount"] > 150}
return {
    "refund_ids": [r["id"] for r in refunds],
    "refund_total": round(sum(r["amount"] for r in refunds), 2),
    "big_purchases": {str(k): v for k, v in big_purchases.items()},
}
