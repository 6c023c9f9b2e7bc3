# description: Report classes with a nested Meta config class read by a base method
# value: {"lines": ["Stock", "sku | in_stock", "HD-10 | 42", "CB-05 | 120", "LP-14 | 3"], "base_title": "untitled", "qual": "StockReport.Meta"}
# logs: ["Stock", "sku | in_stock", "HD-10 | 42", "CB-05 | 120", "LP-14 | 3"]
class Report:
    class Meta:
        title = "untitled"
        columns = ()

    def __init__(self, rows):
        self.rows = rows

    def render(self):
        meta = type(self).Meta
        head = " | ".join(meta.columns)
        body = [" | ".join(str(r[c]) for c in meta.columns) for r in self.rows]
        return [meta.title, head, *body]

class StockReport(Report):
    class Meta(Report.Meta):
        title = "Stock"
        columns = ("sku", "in_stock")

products = await tools.list_products(category="accessories")
lines = StockReport(products).render()
print(*lines, sep="\n")
return {"lines": lines, "base_title": Report.Meta.title, "qual": StockReport.Meta.__qualname__}
