# description: Reprice products but validate first; report the tool's complaint about the bad row
# value: "ValueError: new_price must be above 0, got 0.0 | retried with 2 rows"
changes = [
    {"sku": "KB-01", "new_price": 79.0},
    {"sku": "MS-02", "new_price": 0},
    {"sku": "HD-10", "new_price": 35.5},
]
try:
    await tools.update_prices(changes=changes)
    outcome = "applied"
except ToolCallError as e:
    outcome = f"{e.type}: {str(e).rsplit(': ', 1)[-1]}"
    changes = [c for c in changes if c["new_price"] > 0]
    applied = await tools.update_prices(changes=changes)
    outcome += f" | retried with {len(applied)} rows"
return outcome
