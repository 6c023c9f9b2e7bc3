# description: Produce compact and pretty JSON views of an order and parse them back
# value: {"pretty_lines": 22, "compact_len": 260, "keys": ["id", "customer_id", "status"], "floats": {"a": "1.10", "b": 20}, "error": "Expecting property name enclosed in double quotes at line 1 col 2", "nan": "NaN"}
# logs: ["  \"created\": \"2024-02-11\","]
import json
from collections import OrderedDict

order = await tools.get_order(order_id="o-1007")
pretty = json.dumps(order, indent=2, sort_keys=True)
compact = json.dumps(order, separators=(",", ":"), ensure_ascii=False)
back = json.loads(compact, object_pairs_hook=OrderedDict)
floats = json.loads('{"a": 1.10, "b": 2}', parse_float=str, parse_int=lambda s: int(s) * 10)
try:
    json.loads("{bad json}")
    error = None
except json.JSONDecodeError as e:
    error = f"{e.msg} at line {e.lineno} col {e.colno}"
print(pretty.splitlines()[1])
return {"pretty_lines": len(pretty.splitlines()), "compact_len": len(compact), "keys": list(back)[:3], "floats": floats, "error": error, "nan": json.dumps(float("nan"))}
