# description: Build a JSON report of order o-1003
# value: {"bytes": 115, "report": {"order": "o-1003", "items": ["1 x Noise-cancelling headset", "1 x USB-C hub"], "total": 188.0}}
import json

order = await tools.get_order(order_id="o-1003")
report = {
    "order": order["id"],
    "items": [f"{l['quantity']} x {l['name']}" for l in order["lines"]],
    "total": order["total"],
}
text = json.dumps(report, indent=2)
print(text)

parsed = json.loads(text)
assert parsed == report
return {"bytes": len(text), "report": parsed}
