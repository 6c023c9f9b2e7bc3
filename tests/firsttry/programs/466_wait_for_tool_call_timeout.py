# description: Guard each tool call with asyncio.wait_for and a generous timeout
# value: [14, 6, 120]
import asyncio
out = []
for sku in ["KB-01", "MN-27", "CB-05"]:
    units = await asyncio.wait_for(tools.get_stock(sku=sku), timeout=10)
    out.append(units)
return out
