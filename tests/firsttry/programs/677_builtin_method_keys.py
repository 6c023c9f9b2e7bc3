# description: Sort and clean names with str methods and dict.get as key functions
# value: {"by_fold": ["Apple", "apple pie", "banana", "Banana split", "cherry"], "top": "banana", "longest": "Banana split", "cheapest": "CB-05", "upper": ["APPLE", "APPLE PIE"]}
raw = ["  banana ", "Apple", "cherry  ", "apple pie", "Banana split"]
clean = list(map(str.strip, raw))
by_fold = sorted(clean, key=str.casefold)
counts = {}
for name in clean:
    first = name.split()[0].lower()
    counts[first] = counts.get(first, 0) + 1
top = max(counts, key=counts.get)
lengths = sorted(clean, key=len, reverse=True)
products = await tools.list_products()
prices = {p["sku"]: p["price"] for p in products}
cheapest = min(prices, key=prices.get)
return {"by_fold": by_fold, "top": top, "longest": lengths[0], "cheapest": cheapest,
        "upper": list(map(str.upper, by_fold[:2]))}
