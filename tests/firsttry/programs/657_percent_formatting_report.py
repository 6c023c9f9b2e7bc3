# description: Old-style percent formatting for a stock report
# value: {"rows": ["KB-01    Mechanical keyboard           89.00   14", "MS-02    Wireless mouse                25.50    0", "MN-27    27-inch monitor              279.99    6", "HD-10    USB-C hub                     39.00   42", "CB-05    Braided cable                  9.75  120", "LP-14    Laptop stand                  45.00    3", "HS-07    Noise-cancelling headset     149.00    9"], "summary": "7 products, 2 low on stock (28.6%)"}
# logs: ["KB-01    Mechanical keyboard           89.00   14", "MS-02    Wireless mouse                25.50    0", "MN-27    27-inch monitor              279.99    6", "HD-10    USB-C hub                     39.00   42", "CB-05    Braided cable                  9.75  120", "LP-14    Laptop stand                  45.00    3", "HS-07    Noise-cancelling headset     149.00    9", "7 products, 2 low on stock (28.6%)"]
products = await tools.list_products()
rows = []
for p in products:
    rows.append("%-8s %-26s %8.2f %4d" % (p["sku"], p["name"], p["price"], p["in_stock"]))
low = [p for p in products if p["in_stock"] < 5]
summary = "%(count)d products, %(low)d low on stock (%(pct).1f%%)" % {
    "count": len(products), "low": len(low), "pct": 100.0 * len(low) / len(products)}
print("\n".join(rows))
print(summary)
return {"rows": rows, "summary": summary}
