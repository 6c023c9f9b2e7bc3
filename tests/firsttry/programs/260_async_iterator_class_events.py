# description: Stream purchases through an async iterator class and stop early with aclosing
# value: {"total": 1363.86, "pages_all": 6, "first_big": [5, 10], "pages_early": 2, "closed": [2]}
import contextlib
from typing import AsyncIterator

class EventStream:
    def __init__(self, page_size: int = 9) -> None:
        self.page_size = page_size
        self.pages_read = 0
        self._buffer: list[dict] = []
        self._cursor: str | None = None
        self._done = False

    def __aiter__(self) -> "EventStream":
        return self

    async def __anext__(self) -> dict:
        while not self._buffer:
            if self._done:
                raise StopAsyncIteration
            page = await tools.list_events(cursor=self._cursor, page_size=self.page_size)
            self.pages_read += 1
            self._buffer = list(page["items"])
            self._cursor = page["next_cursor"]
            self._done = self._cursor is None
        return self._buffer.pop(0)

closed = []

async def purchases(stream: EventStream) -> AsyncIterator[dict]:
    try:
        async for event in stream:
            if event["kind"] == "purchase":
                yield event
    finally:
        closed.append(stream.pages_read)

all_stream = EventStream()
total = sum([e["amount"] async for e in all_stream if e["kind"] == "purchase"])

early = EventStream(page_size=5)
first_big = []
async with contextlib.aclosing(purchases(early)) as gen:
    async for e in gen:
        if e["amount"] > 150:
            first_big.append(e["id"])
            if len(first_big) == 2:
                break
return {"total": round(total, 2), "pages_all": all_stream.pages_read, "first_big": first_big,
        "pages_early": early.pages_read, "closed": closed}
