# description: Dispatch tool calls by computed names and report names that are no tool
# value: {"results": {"get_stock": 14, "stock_levels": {"KB-01": 14, "HD-10": 42}}, "missing": ["get_inventory"]}
wanted = ["get_stock", "get_inventory", "stock_levels"]
results = {}
missing = []
for name in wanted:
    try:
        fn = getattr(tools, name)
    except AttributeError:
        missing.append(name)
        continue
    if name == "get_stock":
        results[name] = await fn(sku="KB-01")
    else:
        results[name] = await fn({"skus": ["KB-01", "HD-10"]})
return {"results": results, "missing": missing}
