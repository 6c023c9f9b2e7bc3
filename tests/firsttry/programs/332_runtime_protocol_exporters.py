# description: Export low-stock products through whichever exporters support the requested format
# value: {"formats": ["csv", "json", "md"], "rejected": ["Broken", "str", "NoneType"], "csv_lines": 5, "json_skus": ["MS-02", "MN-27", "LP-14", "HS-07"], "is_subclass_check": true}
# logs: ["| sku | name | stock |", "|---|---|---|", "| MS-02 | Wireless mouse | 0 |", "| MN-27 | 27-inch monitor | 6 |", "| LP-14 | Laptop stand | 3 |", "| HS-07 | Noise-cancelling headset | 9 |"]
# limitation: typing.runtime_checkable is not in the run_code typing facade
import csv
import io
import json
from typing import Protocol, runtime_checkable

@runtime_checkable
class Exporter(Protocol):
    fmt: str
    def export(self, rows: list[dict]) -> str: ...

class CsvExporter:
    fmt = "csv"
    def export(self, rows):
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        return buf.getvalue()

class JsonExporter:
    fmt = "json"
    def __init__(self, indent=None):
        self.indent = indent
    def export(self, rows):
        return json.dumps(rows, indent=self.indent)

class MarkdownExporter:
    fmt = "md"
    def export(self, rows):
        keys = list(rows[0])
        out = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
        out += ["| " + " | ".join(str(r[k]) for k in keys) + " |" for r in rows]
        return "\n".join(out)

class Broken:
    fmt = "xml"

candidates = [CsvExporter(), JsonExporter(), MarkdownExporter(), Broken(), "csv", None]
exporters = {e.fmt: e for e in candidates if isinstance(e, Exporter)}
rejected = [type(c).__name__ for c in candidates if not isinstance(c, Exporter)]

low = [{"sku": p["sku"], "name": p["name"], "stock": p["in_stock"]}
       for p in await tools.list_products() if p["in_stock"] < 10]
outputs = {fmt: exporters[fmt].export(low) for fmt in ("csv", "md", "json", "xml") if fmt in exporters}
print(outputs["md"])
return {"formats": sorted(outputs), "rejected": rejected, "csv_lines": outputs["csv"].count("\n"),
        "json_skus": [r["sku"] for r in json.loads(outputs["json"])], "is_subclass_check": isinstance(JsonExporter(2), Exporter)}
