# description: Custom exception with extra attributes, e.args, bare raise and from None
# value: {"ok": ["o-1003"], "problems": [{"args": ["o-1004", "status is delivered"], "id": "o-1004", "str": "('o-1004', 'status is delivered')"}, {"args": ["o-1009", "status is shipped"], "id": "o-1009", "str": "('o-1009', 'status is shipped')"}], "suppressed": [true, "ValueError('no such key')"], "reraised": "status is delivered"}
class OrderProblem(Exception):
    def __init__(self, order_id, reason):
        super().__init__(order_id, reason)
        self.order_id = order_id
        self.reason = reason

def check(order):
    if order["status"] != "pending":
        raise OrderProblem(order["id"], f"status is {order['status']}")
    return order["id"]

async def cancel_all(ids):
    ok, problems = [], []
    for oid in ids:
        order = await tools.get_order(order_id=oid)
        try:
            ok.append(check(order))
        except OrderProblem as e:
            problems.append({"args": list(e.args), "id": e.order_id, "str": str(e)})
    return ok, problems

ok, problems = await cancel_all(["o-1003", "o-1004", "o-1009"])
try:
    try:
        {}["missing"]
    except KeyError:
        raise ValueError("no such key") from None
except ValueError as e:
    suppressed = (e.__cause__ is None, repr(e))
try:
    try:
        check(await tools.get_order(order_id="o-1001"))
    except OrderProblem:
        raise
except OrderProblem as e:
    reraised = e.reason
return {"ok": ok, "problems": problems, "suppressed": list(suppressed), "reraised": reraised}
