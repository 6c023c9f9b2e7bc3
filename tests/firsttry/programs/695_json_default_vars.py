# description: Serialise plain objects with json.dumps(default=vars)
# value: {"title": "peripherals", "rows": [{"sku": "KB-01", "units": 14}, {"sku": "MS-02", "units": 0}]}
import json

class Stock:
    def __init__(self, sku, units):
        self.sku = sku
        self.units = units

class Report:
    def __init__(self, title, rows):
        self.title = title
        self.rows = rows

products = await tools.list_products(category="peripherals")
report = Report("peripherals", [Stock(p["sku"], p["in_stock"]) for p in products])
text = json.dumps(report, default=vars, indent=None)
return json.loads(text)
