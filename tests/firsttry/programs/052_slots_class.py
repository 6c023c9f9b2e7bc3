# description: Track stock movements with a slotted class
# value: {"free": {"LP-14": 1, "KB-01": 12}, "problems": []}
class StockItem:
    __slots__ = ("sku", "units", "reserved")

    def __init__(self, sku, units):
        self.sku = sku
        self.units = units
        self.reserved = 0

    def reserve(self, n):
        if n > self.units - self.reserved:
            raise ValueError(f"not enough {self.sku}")
        self.reserved += n

    @property
    def free(self):
        return self.units - self.reserved


order = await tools.get_order(order_id="o-1010")
items = {}
problems = []
for line in order["lines"]:
    units = await tools.get_stock(sku=line["sku"])
    item = items.setdefault(line["sku"], StockItem(line["sku"], units))
    try:
        item.reserve(line["quantity"])
    except ValueError as e:
        problems.append(str(e))

return {"free": {sku: i.free for sku, i in items.items()}, "problems": problems}
