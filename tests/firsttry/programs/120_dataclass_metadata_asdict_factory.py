# description: Export customers through dataclass field metadata
# value: {"rows": [{"Customer ID": "c1", "Full name": "Ada Lovelace", "City": "London", "Spend (EUR)": "866.23"}, {"Customer ID": "c6", "Full name": "Margaret Hamilton", "City": "Boston", "Spend (EUR)": "754.00"}], "columns": ["Customer ID", "Full name", "City", "Spend (EUR)"], "n_fields": 4}
from dataclasses import dataclass, field, fields, asdict
from typing import ClassVar

@dataclass
class Row:
    HEADERS: ClassVar[dict[str, str]] = {}
    customer_id: str = field(metadata={"label": "Customer ID"})
    name: str = field(metadata={"label": "Full name"})
    city: str = field(metadata={"label": "City"})
    spend: float = field(default=0.0, metadata={"label": "Spend (EUR)", "fmt": "{:.2f}"})

def labelled(pairs):
    meta = {f.name: f.metadata for f in fields(Row)}
    return {meta[k]["label"]: meta[k].get("fmt", "{}").format(v) for k, v in pairs}

rows = []
for c in await tools.list_customers(tier="enterprise"):
    orders = await tools.list_orders(customer_id=c["id"])
    rows.append(Row(c["id"], c["name"], c["address"]["city"], sum(o["total"] for o in orders if o["status"] != "cancelled")))

exported = [asdict(r, dict_factory=labelled) for r in rows]
return {"rows": exported, "columns": [f.metadata["label"] for f in fields(Row)], "n_fields": len(fields(rows[0]))}
