# description: Wrap SKUs in a str subclass with helpers and return them in the result
# value: {"families": ["CB", "HD", "HS", "KB", "LP", "MN", "MS"], "skus": ["KB-01", "MS-02", "MN-27", "HD-10", "CB-05", "LP-14", "HS-07"]}
# limitation: a returned str subclass is refused by design, as other built-in subclasses are; the refusal says to convert it with str(value)
class Sku(str):
    @property
    def family(self):
        return self.split("-")[0]

products = await tools.list_products()
skus = [Sku(p["sku"]) for p in products]
families = sorted({s.family for s in skus})
return {"families": families, "skus": skus}
