# description: Audit stock levels, printing warnings to stderr and the summary to stdout
# value: {"attention": ["MS-02", "LP-14"]}
# logs: ["2 SKUs need attention"]
# limitation: the sys module is not available in run_code (no sys.stderr; print is the only output stream)
import sys

low = []
for p in await tools.list_products():
    stock = await tools.get_stock(sku=p["sku"])
    if stock == 0:
        print(f"WARNING: {p['sku']} is out of stock", file=sys.stderr)
        low.append(p["sku"])
    elif stock < 5:
        sys.stderr.write(f"notice: {p['sku']} low ({stock})\n")
        low.append(p["sku"])
print(f"{len(low)} SKUs need attention")
return {"attention": low}
