# description: Bulk stock lookup returning a dict keyed by SKU, with .get for unknown SKUs
# value: {"report": {"KB-01": 14, "MS-02": 0, "ZZ-00": "unknown", "HS-07": 9}, "out_of_stock": ["MS-02"]}
wanted = ["KB-01", "MS-02", "ZZ-00", "HS-07"]
levels = await tools.stock_levels(skus=wanted)
report = {sku: levels.get(sku, "unknown") for sku in wanted}
out_of_stock = [sku for sku, units in levels.items() if units == 0]
return {"report": report, "out_of_stock": out_of_stock}
