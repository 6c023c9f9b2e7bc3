# description: Refund a goodwill amount on several orders and group failures by exception type
# value: {"done": {"o-1001": "approved", "o-1002": "review"}, "failed": {"denied": ["o-1003", "o-1006", "o-1004"], "unknown": ["o-1099"]}}
# logs: ["2 refunded, 4 failed"]
import asyncio
from collections import defaultdict

requests = {"o-1001": 10.0, "o-1002": 150.0, "o-1003": 5.0, "o-1006": 5.0, "o-1099": 5.0, "o-1004": 999.0}

async def refund(order_id, amount):
    try:
        r = await tools.refund_order(order_id=order_id, amount=amount)
        return order_id, r["status"], None
    except ToolCallError as e:
        return order_id, None, e

results = await asyncio.gather(*(refund(o, a) for o, a in requests.items()))
done = {o: status for o, status, err in results if err is None}
failed = defaultdict(list)
for order_id, _, err in results:
    if err is None:
        continue
    if err.type == "RefundDenied":
        failed["denied"].append(order_id)
    elif err.type == "LookupError":
        failed["unknown"].append(order_id)
    else:
        raise err
print(f"{len(done)} refunded, {sum(map(len, failed.values()))} failed")
return {"done": done, "failed": dict(failed)}
