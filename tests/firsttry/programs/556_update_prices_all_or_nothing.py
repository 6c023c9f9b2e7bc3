# description: Try a price update with one bad SKU, then apply the valid part
# value: {"first": {"type": "LookupError", "message": "tool \"update_prices\" raised LookupError: changes[1]: unknown sku 'NOPE-1'"}, "applied": [{"sku": "KB-01", "old_price": 89.0, "new_price": 79.0, "change_pct": -11.24}, {"sku": "HD-10", "old_price": 39.0, "new_price": 35.5, "change_pct": -8.97}], "old_after": 79.0}
changes = [{"sku": "KB-01", "new_price": 79.0}, {"sku": "NOPE-1", "new_price": 5.0},
           {"sku": "HD-10", "new_price": 35.5}]
try:
    await tools.update_prices(changes=changes)
    first = "applied"
except ToolCallError as e:
    first = {"type": e.type, "message": str(e)}
valid = [c for c in changes if c["sku"] != "NOPE-1"]
applied = await tools.update_prices(changes=valid)
again = await tools.update_prices(changes=[{"sku": "KB-01", "new_price": 75.0}])
return {"first": first, "applied": applied, "old_after": again[0]["old_price"]}
