# description: Apply a 10% discount to every accessory in one update_prices call
# value: {"changed": 3, "avg_pct": -9.98}
# logs: ["HD-10: 39.0 -> 35.1 (-10.0%)", "CB-05: 9.75 -> 8.78 (-9.9%)", "LP-14: 45.0 -> 40.5 (-10.0%)"]
products = await tools.list_products(category="accessories")
changes = [{"sku": p["sku"], "new_price": round(p["price"] * 0.9, 2)} for p in products]
results = await tools.update_prices(changes=changes)
for r in results:
    print(f"{r['sku']}: {r['old_price']} -> {r['new_price']} ({r['change_pct']:+.1f}%)")
return {"changed": len(results), "avg_pct": round(sum(r["change_pct"] for r in results) / len(results), 2)}
