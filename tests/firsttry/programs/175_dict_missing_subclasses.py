# description: Aggregate stock per category with dict subclasses that use __missing__
# value: {"stock": {"accessories": 165, "audio": 9, "displays": 6, "peripherals": 14}, "value": {"accessories": 2943.0, "audio": 1341.0, "displays": 1679.94, "peripherals": 1246.0}, "kb": "Mechanical keyboard", "missing": "'zz-99'", "labels": ["Other", "Audio gear", "Other", "Other"], "get_default": -1, "has_toys": false, "after_lookup": [0, true]}
# logs: ["Mouse (MS-02) costs ?"]
class Totals(dict):
    def __missing__(self, key):
        self[key] = 0
        return 0


class CaseInsensitive(dict):
    def __missing__(self, key):
        if isinstance(key, str) and key != key.lower():
            return self[key.lower()]
        raise KeyError(key)


class Fallback(dict):
    def __init__(self, *args, default="n/a", **kwargs):
        super().__init__(*args, **kwargs)
        self.default = default

    def __missing__(self, key):
        return self.default


products = await tools.list_products()
stock = Totals()
value = Totals()
for p in products:
    stock[p["category"]] += p["in_stock"]
    value[p["category"]] += round(p["in_stock"] * p["price"], 2)

by_sku = CaseInsensitive({p["sku"].lower(): p["name"] for p in products})
labels = Fallback({"audio": "Audio gear"}, default="Other")
try:
    by_sku["ZZ-99"]
    missing = None
except KeyError as e:
    missing = str(e)

template = "{name} ({sku}) costs {price}"
line = template.format_map(Fallback({"name": "Mouse", "sku": "MS-02"}, default="?"))
print(line)
return {
    "stock": dict(sorted(stock.items())),
    "value": {k: round(v, 2) for k, v in sorted(value.items())},
    "kb": by_sku["KB-01"],
    "missing": missing,
    "labels": [labels[c] for c in sorted(stock)],
    "get_default": stock.get("toys", -1),
    "has_toys": "toys" in stock,
    "after_lookup": (stock["toys"], "toys" in stock),
}
