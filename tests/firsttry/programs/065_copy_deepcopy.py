# description: Draft a modified order without touching the original
# value: {"original_total": 188.0, "draft_total": 356.5, "original_first_qty": 1, "original_status": "pending"}
import copy

order = await tools.get_order(order_id="o-1003")
draft = copy.deepcopy(order)
draft["lines"][0]["quantity"] += 1
draft["lines"].append({"sku": "CB-05", "name": "Braided cable", "quantity": 2, "unit_price": 9.75})
draft["total"] = round(sum(l["quantity"] * l["unit_price"] for l in draft["lines"]), 2)

shallow = copy.copy(order)
shallow["status"] = "draft"
return {
    "original_total": order["total"],
    "draft_total": draft["total"],
    "original_first_qty": order["lines"][0]["quantity"],
    "original_status": order["status"],
}
