# description: An object with keys() and __getitem__ turned into a dict with dict(obj) and ** unpacking
# value: {"rows": [{"sku": "HS-07", "price": 149.0, "in_stock": 9}], "merged": {"sku": "HS-07", "price": 149.0, "in_stock": 9, "note": "audio"}, "listed": ["sku", "price", "in_stock"]}
class Row:
    def __init__(self, product):
        self._p = product

    def keys(self):
        return ["sku", "price", "in_stock"]

    def __getitem__(self, key):
        return self._p[key]

    def __iter__(self):
        return iter(self.keys())

products = await tools.list_products(category="audio")
rows = [Row(p) for p in products]
as_dicts = [dict(r) for r in rows]
merged = {**rows[0], "note": "audio"}
return {"rows": as_dicts, "merged": merged, "listed": list(rows[0])}
