# description: Validate pending orders before shipping
# value: {"ready": ["o-1003", "o-1010"], "blocked": {"o-1005": "only 0 of MS-02 left"}}
class OrderValidationError(Exception):
    def __init__(self, order_id, reason):
        super().__init__(f"{order_id}: {reason}")
        self.order_id = order_id
        self.reason = reason


async def validate(order):
    for line in order["lines"]:
        stock = await tools.get_stock(sku=line["sku"])
        if stock < line["quantity"]:
            raise OrderValidationError(order["id"], f"only {stock} of {line['sku']} left")


ok, bad = [], {}
for customer_id in ["c1", "c2", "c6"]:
    for order in await tools.list_orders(customer_id=customer_id, status="pending"):
        try:
            await validate(order)
            ok.append(order["id"])
        except OrderValidationError as exc:
            bad[exc.order_id] = exc.reason

return {"ready": ok, "blocked": bad}
