# description: Choose which products to restock within a budget to maximise expected margin
# value: {"candidates": ["MS-02", "MN-27", "LP-14", "HS-07"], "chosen": ["MS-02", "LP-14"], "spent": 570.0, "margin": 218.25, "left": 30.0}
# logs: ["restock MS-02: 10 units for \u20ac  255.00 (margin \u20ac76.50)", "restock LP-14:  7 units for \u20ac  315.00 (margin \u20ac141.75)"]
MARGIN = {"peripherals": 0.30, "displays": 0.18, "accessories": 0.45, "audio": 0.25}
BUDGET = 600.00

products = await tools.list_products()
items = []
for p in products:
    if p["in_stock"] >= 10:
        continue
    batch = 10 - p["in_stock"]
    cost_cents = round(p["price"] * batch * 100)
    value_cents = round(cost_cents * MARGIN[p["category"]])
    items.append((p["sku"], cost_cents, value_cents, batch))

cap = round(BUDGET * 100)
step = 25
slots = cap // step
best = [0] * (slots + 1)
keep = [[False] * (slots + 1) for _ in items]
for i, (_, cost, value, _) in enumerate(items):
    w = -(-cost // step)
    for c in range(slots, w - 1, -1):
        if (cand := best[c - w] + value) > best[c]:
            best[c] = cand
            keep[i][c] = True

chosen = []
c = slots
for i in range(len(items) - 1, -1, -1):
    if keep[i][c]:
        chosen.append(items[i])
        c -= -(-items[i][1] // step)
chosen.reverse()
spent = sum(item[1] for item in chosen) / 100
for sku, cost, value, batch in chosen:
    print(f"restock {sku}: {batch:>2} units for €{cost / 100:>8,.2f} (margin €{value / 100:,.2f})")
return {
    "candidates": [i[0] for i in items],
    "chosen": [i[0] for i in chosen],
    "spent": spent,
    "margin": best[slots] / 100,
    "left": round(BUDGET - spent, 2),
}
