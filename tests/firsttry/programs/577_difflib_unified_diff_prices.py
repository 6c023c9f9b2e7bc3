# description: Show a unified diff of the price list before and after a price update
# value: {"changed": 0, "header": []}
# logs: [""]
import difflib

before = await tools.list_products(category="accessories")
changes = [{"sku": p["sku"], "new_price": round(p["price"] * 1.1, 2)} for p in before]
await tools.update_prices(changes=changes)
after = await tools.list_products(category="accessories")

def render(items):
    return [f"{p['sku']}: {p['price']:.2f}" for p in items]

diff = list(difflib.unified_diff(render(before), render(after), fromfile="before", tofile="after", lineterm=""))
print("\n".join(diff))
return {"changed": sum(1 for line in diff if line.startswith("+") and not line.startswith("+++")), "header": diff[:2]}
