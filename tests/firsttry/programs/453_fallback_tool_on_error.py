# description: Try the flaky warehouse once per SKU and fall back to get_stock when it times out
# value: {"HD-10": {"units": 42, "source": "warehouse"}, "CB-05": {"units": 120, "source": "warehouse"}, "LP-14": {"units": 3, "source": "catalogue"}}
async def stock(sku):
    try:
        w = await tools.warehouse_stock(sku=sku)
        return {"units": w["north"] + w["south"], "source": "warehouse"}
    except ToolCallError as e:
        if e.type != "TimeoutError":
            raise
        return {"units": await tools.get_stock(sku=sku), "source": "catalogue"}

out = {}
for p in await tools.list_products(category="accessories"):
    out[p["sku"]] = await stock(p["sku"])
return out
