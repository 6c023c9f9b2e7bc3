# description: Expose the paginated event log as a lazy read-only sequence with slicing
# value: {"len": 47, "last_id": 47, "slice_ids": [6, 12, 18, 24, 30], "reversed_first": 47, "index_of_refund": 5, "contains": true, "count_first": 1, "oob": "event index out of range"}
from collections.abc import Sequence

class EventLog(Sequence):
    def __init__(self, pages: list[list[dict]], total: int) -> None:
        self._pages = pages
        self._total = total
        self._page_size = len(pages[0]) if pages else 1

    def __len__(self) -> int:
        return self._total

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("event index out of range")
        page, offset = divmod(index, self._page_size)
        return self._pages[page][offset]

pages: list[list[dict]] = []
cursor = None
total = 0
while True:
    page = await tools.list_events(cursor=cursor, page_size=8)
    pages.append(page["items"])
    total = page["total"]
    cursor = page["next_cursor"]
    if cursor is None:
        break

log = EventLog(pages, total)
first_refund = next(e for e in log if e["kind"] == "refund")
try:
    log[len(log)]
    oob = "no error"
except IndexError as e:
    oob = str(e)
return {
    "len": len(log),
    "last_id": log[-1]["id"],
    "slice_ids": [e["id"] for e in log[5:30:6]],
    "reversed_first": next(reversed(log))["id"],
    "index_of_refund": log.index(first_refund),
    "contains": first_refund in log,
    "count_first": log.count(log[0]),
    "oob": oob,
}
