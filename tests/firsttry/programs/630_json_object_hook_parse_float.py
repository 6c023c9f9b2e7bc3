# description: Round-trip an export through JSON with object_hook, object_pairs_hook and parse_float
# value: {"first_sku": "HS-07", "exact_total": "754.0", "keys": ["orders", "customer"], "pretty": ["{", "  \"a\": [", "    1,", "    2", "  ],", "  \"b\": 1", "}"], "ascii": "\"caf\\u00e9\"", "unicode": "\"café\""}
# logs: ["bad json at 668 Unterminated string starting at"]
import json
from collections import OrderedDict
from decimal import Decimal
from types import SimpleNamespace

orders = await tools.list_orders(customer_id="c6")
payload = json.dumps({"customer": "c6", "orders": orders}, separators=(",", ":"))
ns = json.loads(payload, object_hook=lambda d: SimpleNamespace(**d))
exact = json.loads(payload, parse_float=Decimal)
ordered = json.loads(payload, object_pairs_hook=OrderedDict)
ordered.move_to_end("customer")
try:
    json.loads(payload[:-5])
except json.JSONDecodeError as e:
    print("bad json at", e.pos, e.msg)
return {
    "first_sku": ns.orders[0].lines[0].sku,
    "exact_total": str(sum(o["total"] for o in exact["orders"])),
    "keys": list(ordered),
    "pretty": json.dumps({"b": 1, "a": [1, 2]}, indent=2, sort_keys=True).splitlines(),
    "ascii": json.dumps("café"),
    "unicode": json.dumps("café", ensure_ascii=False),
}
