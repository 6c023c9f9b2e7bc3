# description: Check stock for the whole catalogue with progress output
# value: {"checked": 7, "low_stock": ["MS-02", "MN-27", "LP-14", "HS-07"]}
import time

start = time.perf_counter()
products = await tools.list_products()
low = []
for i, product in enumerate(products, start=1):
    units = await tools.get_stock(sku=product["sku"])
    print(f"[{i}/{len(products)}] {product['sku']}: {units} units")
    if units < 10:
        low.append(product["sku"])
elapsed = time.perf_counter() - start
print(f"done in {elapsed:.2f}s")

return {"checked": len(products), "low_stock": low}
