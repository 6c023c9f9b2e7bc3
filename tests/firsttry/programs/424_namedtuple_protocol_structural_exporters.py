# description: Export order rows through structurally typed exporters (Protocol) over NamedTuple rows, CSV and JSON
# value: {"sizes": {"csv": 228, "json": 641}, "first_csv": ["order,customer,status,total", "o-1007,Katherine Johnson,delivered,357.99"], "parsed": {"order": "o-0", "customer": "nobody", "status": "pending", "total": "0.00"}, "defaults": {"total": 0.0}, "replaced": 0.0, "unpacked": ["o-1007", "Katherine Johnson", ["delivered", 357.99]], "json_head": {"order": "o-1007", "customer": "Katherine Johnson", "status": "delivered", "total": 357.99}}
from typing import NamedTuple, Protocol, Iterable, Sequence
import csv
import io
import json


class Row(NamedTuple):
    order: str
    customer: str
    status: str
    total: float = 0.0

    def as_cells(self) -> list[str]:
        return [self.order, self.customer, self.status, f"{self.total:.2f}"]


class Exporter(Protocol):
    name: str

    def export(self, rows: Sequence[Row]) -> str: ...


class CsvExporter:
    name = "csv"

    def export(self, rows):
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(Row._fields)
        w.writerows(r.as_cells() for r in rows)
        return buf.getvalue()


class JsonExporter:
    name = "json"

    def __init__(self, indent=None):
        self.indent = indent

    def export(self, rows):
        return json.dumps([r._asdict() for r in rows], indent=self.indent)


def run_all(exporters: Iterable[Exporter], rows: Sequence[Row]) -> dict[str, int]:
    return {e.name: len(e.export(rows)) for e in exporters}


rows: list[Row] = []
for c in await tools.list_customers(tier="pro"):
    for o in await tools.list_orders(customer_id=c["id"]):
        rows.append(Row(o["id"], c["name"], o["status"], o["total"]))
rows.append(Row("o-00", "nobody", "pending"))
rows.append(Row._make(["o-0", "nobody", "pending", 0.0]))
rows.sort(key=lambda r: (r.status, -r.total))
csv_text = CsvExporter().export(rows)
parsed = list(csv.DictReader(io.StringIO(csv_text)))
order, customer, *rest = rows[0]
return {
    "sizes": run_all([CsvExporter(), JsonExporter(), JsonExporter(indent=2)], rows),
    "first_csv": csv_text.splitlines()[:2],
    "parsed": parsed[-1],
    "defaults": Row._field_defaults,
    "replaced": rows[0]._replace(total=0.0).total,
    "unpacked": [order, customer, rest],
    "json_head": json.loads(JsonExporter().export(rows[:1]))[0],
}
