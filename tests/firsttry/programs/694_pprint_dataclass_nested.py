# description: Pretty-print nested dataclasses built from an order with pprint
# value: ["OrderView(id='o-1001',", "          status='delivered',", "          lines=[Line(sku='KB-01',", "                      quantity=1,", "                      unit_price=89.0),", "                 Line(sku='CB-05',", "                      quantity=3,", "                      unit_price=9.75)])"]
# logs: ["OrderView(id='o-1001',", "          status='delivered',", "          lines=[Line(sku='KB-01',", "                      quantity=1,", "                      unit_price=89.0),", "                 Line(sku='CB-05',", "                      quantity=3,", "                      unit_price=9.75)])"]
import pprint
from dataclasses import dataclass, field

@dataclass
class Line:
    sku: str
    quantity: int
    unit_price: float

@dataclass
class OrderView:
    id: str
    status: str
    lines: list[Line] = field(default_factory=list)

o = await tools.get_order(order_id="o-1001")
view = OrderView(o["id"], o["status"], [Line(l["sku"], l["quantity"], l["unit_price"]) for l in o["lines"]])
text = pprint.pformat(view, width=60)
print(text)
return text.splitlines()
