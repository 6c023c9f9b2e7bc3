# description: Build deterministic idempotency keys, checksums and opaque tokens for outgoing notifications
# value: {"out": [{"id": "c2", "sha": "9faf8e0d8b90", "key": "67245635-3303-5c4b-8a90-f55e6d6be1a8", "version": 5, "token": "R_0GMOXNnb3u10NSyvvkI1aGf7U"}, {"id": "c4", "sha": "12e90e874081", "key": "c9c18f16-c796-55cb-811e-e8b7fd88fd39", "version": 5, "token": "3QwZbzTduW8F1bMI7TCGudQFyA0"}], "md5": "33a9ed386944493dbabcda6111c4769b", "b64": "aGVsbG8g/yB3b3JsZA==", "round": true, "b32": "N5VQ====", "b16": "01AB", "uuid_fields": ["12345678123456781234567812345678", 104, "12345678", "urn:uuid:"], "sha3": "741efa311f", "blake": "021e7a9b8f02028c", "new": "ba7816bf8f", "uuid4_len": 36, "avail": true}
# limitation: hashlib.new is not in the hashlib facade
import hashlib
import base64
import uuid
import json

NS = uuid.uuid5(uuid.NAMESPACE_URL, "https://shop.example.com/notifications")
customers = await tools.list_customers(tier="pro")
out = []
for c in customers:
    payload = json.dumps({"to": c["email"], "kind": "survey"}, sort_keys=True).encode("utf-8")
    digest = hashlib.sha256(payload).hexdigest()
    key = uuid.uuid5(NS, digest)
    token = base64.urlsafe_b64encode(hashlib.sha1(payload).digest()).rstrip(b"=").decode("ascii")
    out.append({"id": c["id"], "sha": digest[:12], "key": str(key), "version": key.version, "token": token})

h = hashlib.md5()
for chunk in (b"part1", b"part2"):
    h.update(chunk)
raw = b"hello \xff world"
b64 = base64.b64encode(raw)
u = uuid.UUID("12345678-1234-5678-1234-567812345678")
return {
    "out": out,
    "md5": h.hexdigest(),
    "b64": b64.decode(),
    "round": base64.b64decode(b64) == raw,
    "b32": base64.b32encode(b"ok").decode(),
    "b16": base64.b16encode(b"\x01\xab").decode(),
    "uuid_fields": [u.hex, u.int % 1000, str(u).upper()[:8], u.urn[:9]],
    "sha3": hashlib.sha3_256(b"x").hexdigest()[:10],
    "blake": hashlib.blake2s(b"x", digest_size=8).hexdigest(),
    "new": hashlib.new("sha256", b"abc").hexdigest()[:10],
    "uuid4_len": len(str(uuid.uuid4())),
    "avail": "sha256" in hashlib.algorithms_guaranteed,
}
