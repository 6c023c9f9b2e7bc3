# description: Search loops with for/else and while/else
# value: {"found": null, "attempts": 3, "stock": 42, "skipped": ["MS-02"]}
# logs: ["low stock: LP-14 (3)"]
target_city = "Oslo"
customers = await tools.list_customers()
for c in customers:
    if c["address"]["city"] == target_city:
        found = c["id"]
        break
else:
    found = None

attempt = 0
while attempt < 3:
    attempt += 1
    try:
        stock = await tools.get_stock(sku=["XX-1", "YY-2", "HD-10"][attempt - 1])
    except ToolCallError:
        continue
    break
else:
    stock = -1

skipped = []
for sku in ["KB-01", "MS-02", "LP-14"]:
    if (n := await tools.get_stock(sku=sku)) == 0:
        skipped.append(sku)
        continue
    if n < 5:
        print(f"low stock: {sku} ({n})")
return {"found": found, "attempts": attempt, "stock": stock, "skipped": skipped}
