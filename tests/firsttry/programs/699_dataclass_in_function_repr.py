# description: A dataclass defined inside a helper function, its repr and equality
# value: {"reprs": ["make_rows.<locals>.Row(id='o-1004', total=45.0)", "make_rows.<locals>.Row(id='o-1005', total=70.5)"], "same": true}
# logs: ["make_rows.<locals>.Row(id='o-1004', total=45.0)"]
from dataclasses import dataclass

def make_rows(orders):
    @dataclass(frozen=True)
    class Row:
        id: str
        total: float
    return [Row(o["id"], o["total"]) for o in orders]

rows = make_rows(await tools.list_orders(customer_id="c2"))
print(rows[0])
return {"reprs": [repr(r) for r in rows], "same": rows[0] == type(rows[0])(rows[0].id, rows[0].total)}
