# description: Encode a compact export token with base64 and decode it back
# value: {"token": "eyJpZCI6Im8tMTAwNyIsInNrdXMiOlsiTU4tMjciLCJIRC0xMCJdLCJ0b3RhbCI6MzU3Ljk5fQ", "roundtrip": true, "b16": "6F2D31303037", "b32": "MMYQ===="}
import base64
import json

order = await tools.get_order(order_id="o-1007")
payload = {"id": order["id"], "total": order["total"], "skus": [l["sku"] for l in order["lines"]]}
raw = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
token = base64.urlsafe_b64encode(raw).decode().rstrip("=")
padded = token + "=" * (-len(token) % 4)
decoded = json.loads(base64.urlsafe_b64decode(padded))
b16 = base64.b16encode(order["id"].encode()).decode()
return {"token": token, "roundtrip": decoded == payload, "b16": b16, "b32": base64.b32encode(b"c1").decode()}
