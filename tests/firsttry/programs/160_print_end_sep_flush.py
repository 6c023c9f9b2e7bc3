# description: Print a compact progress line while checking stock
# value: ["MS-02"]
# logs: ["checking 7 skus: .x.....", "KB-01 | MS-02 | MN-27", "done", "", "1 out of stock ['MS-02']"]
skus = [p["sku"] for p in await tools.list_products()]
print("checking", len(skus), "skus", sep=" ", end=": ")
out_of_stock = []
for sku in skus:
    n = await tools.get_stock(sku=sku)
    print("." if n else "x", end="", flush=True)
    if not n:
        out_of_stock.append(sku)
print()
print(*skus[:3], sep=" | ")
print("done", end="\n\n")
print(f"{len(out_of_stock)} out of stock", repr(out_of_stock))
return out_of_stock
