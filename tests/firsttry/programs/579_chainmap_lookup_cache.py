# description: Look up stock through a ChainMap of a local cache and the bulk stock levels
# value: {"report": {"KB-01": 99, "MS-02": 0, "HD-10": 42, "XX-99": "unknown"}, "local_after": {"KB-01": 99, "MS-02": 5}, "in_remote": true, "keys": ["HD-10", "KB-01", "MS-02"]}
from collections import ChainMap

local = {"KB-01": 99}
remote = await tools.stock_levels(skus=["KB-01", "MS-02", "HD-10", "XX-99"])
stock = ChainMap(local, remote)
report = {sku: stock.get(sku, "unknown") for sku in ["KB-01", "MS-02", "HD-10", "XX-99"]}
stock["MS-02"] = 5
return {"report": report, "local_after": local, "in_remote": "HD-10" in stock, "keys": sorted(stock)}
