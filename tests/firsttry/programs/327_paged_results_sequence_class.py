# description: Load the event log into a lazily paged, indexable collection and sample from it
# value: {"sample": [1, 18, 47, 31, 32], "len": 47, "fetches": 4, "loaded_ids": 31, "contains": [true, false, true], "missing": "page 1 not loaded", "oob": "event index 100 out of range", "repr": "EventLog(4/6 pages, 47 events)"}
# logs: ["EventLog(4/6 pages, 47 events)"]
import math

class EventLog:
    """Events fetched a page at a time, addressable by index."""

    def __init__(self, first_page: dict, page_size: int):
        self.page_size = page_size
        self.total = first_page["total"]
        self.pages = {0: first_page["items"]}
        self.fetches = 1

    @classmethod
    async def open(cls, page_size: int = 10) -> "EventLog":
        return cls(await tools.list_events(page_size=page_size), page_size)

    async def load(self, index: int) -> None:
        n = index // self.page_size
        if n not in self.pages:
            page = await tools.list_events(cursor=f"cur_{n * self.page_size}", page_size=self.page_size)
            self.pages[n] = page["items"]
            self.fetches += 1

    def __len__(self) -> int:
        return self.total

    def __getitem__(self, index: int) -> dict:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"event index {index} out of range")
        page = self.pages.get(index // self.page_size)
        if page is None:
            raise LookupError(f"page {index // self.page_size} not loaded")
        return page[index % self.page_size]

    def __iter__(self):
        for n in sorted(self.pages):
            yield from self.pages[n]

    def __contains__(self, event_id: int) -> bool:
        return any(e["id"] == event_id for e in self)

    def __repr__(self) -> str:
        return f"EventLog({len(self.pages)}/{math.ceil(self.total / self.page_size)} pages, {self.total} events)"

log = await EventLog.open(page_size=8)
wanted = [0, 17, -1, 30, 31]
for i in wanted:
    await log.load(i if i >= 0 else i + len(log))
sample = [log[i]["id"] for i in wanted]
try:
    log[12]
    missing = None
except LookupError as e:
    missing = str(e)
try:
    log[100]
except IndexError as e:
    out_of_range = str(e)
print(repr(log))
return {"sample": sample, "len": len(log), "fetches": log.fetches, "loaded_ids": len(list(log)),
        "contains": [5 in log, 12 in log, 47 in log], "missing": missing, "oob": out_of_range, "repr": repr(log)}
