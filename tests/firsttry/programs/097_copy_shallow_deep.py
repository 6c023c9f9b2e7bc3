# description: Draft order changes on copies without touching the originals
# value: {"orig_status": "pending", "orig_lines": 3, "orig_qty": 1, "deep_qty": 99, "d1_meta": 2, "d1_lines": [1, 2], "sliced_is_new": true, "list_copy": true, "dict_copy": true}
import copy

order = await tools.get_order(order_id="o-1003")
shallow = copy.copy(order)
deep = copy.deepcopy(order)
shallow["status"] = "draft"
shallow["lines"].append({"sku": "X", "name": "x", "quantity": 1, "unit_price": 0.0})
deep["lines"][0]["quantity"] = 99

class Draft:
    def __init__(self, lines):
        self.lines = lines
        self.meta = {"v": 1}

d1 = Draft([1, 2])
d2 = copy.copy(d1)
d3 = copy.deepcopy(d1)
d2.meta["v"] = 2
d3.lines.append(3)
sliced = order["lines"][:]
return {
    "orig_status": order["status"],
    "orig_lines": len(order["lines"]),
    "orig_qty": order["lines"][0]["quantity"],
    "deep_qty": deep["lines"][0]["quantity"],
    "d1_meta": d1.meta["v"],
    "d1_lines": d1.lines,
    "sliced_is_new": sliced is not order["lines"],
    "list_copy": list(order["lines"]) == order["lines"],
    "dict_copy": dict(order) == order,
}
