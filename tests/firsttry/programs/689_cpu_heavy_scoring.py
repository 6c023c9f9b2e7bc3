# description: Score every pair of products and events in nested loops (CPU heavy)
# value: {"score": 10090647, "best": {"KB-01": 96, "MS-02": 96, "MN-27": 96, "HD-10": 96, "CB-05": 96, "LP-14": 96, "HS-07": 96}}
products = await tools.list_products()
page = await tools.list_events(page_size=20)
events = page["items"]
score = 0
best = {}
for round_ in range(3000):
    for p in products:
        for e in events[:10]:
            s = (len(p["sku"]) * e["id"] + round_) % 97
            score += s
            if s > best.get(p["sku"], -1):
                best[p["sku"]] = s
return {"score": score, "best": best}
