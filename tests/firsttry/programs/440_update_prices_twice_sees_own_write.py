# description: Raise the keyboard price twice and show the second change starts from the first
# value: [[89.0, 95.0], [95.0, 99.0]]
first = await tools.update_prices(changes=[{"sku": "KB-01", "new_price": 95.0}])
second = await tools.update_prices(changes=[{"sku": "KB-01", "new_price": 99.0}])
return [(r["old_price"], r["new_price"]) for r in first + second]
