# description: Modify a returned order locally (add a computed field) without touching the tool's data
# value: {"mine": 2, "subtotals": [279.99, 78.0], "fresh_has_field": false}
order = await tools.get_order(order_id="o-1007")
order["line_count"] = len(order["lines"])
for line in order["lines"]:
    line["subtotal"] = round(line["quantity"] * line["unit_price"], 2)
again = await tools.get_order(order_id="o-1007")
return {"mine": order["line_count"], "subtotals": [l["subtotal"] for l in order["lines"]], "fresh_has_field": "line_count" in again}
