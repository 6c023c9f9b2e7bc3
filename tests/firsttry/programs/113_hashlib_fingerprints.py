# description: Fingerprint customer records to detect changes
# value: {"changed": ["c3"], "digest": "f3939597cd1e69fa", "md5_len": 16, "name": "sha256"}
import hashlib
import json

customers = await tools.list_customers()

def fingerprint(record: dict) -> str:
    blob = json.dumps(record, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return hashlib.blake2b(blob, digest_size=8).hexdigest()

before = {c["id"]: fingerprint(c) for c in customers}
await tools.tag_customer(customer_id="c3", tags=["churn-risk"])
after_c3 = await tools.get_customer(customer_id="c3")
changed = [cid for cid in before if cid == "c3" and before[cid] != fingerprint(after_c3)]
h = hashlib.sha256()
for cid in sorted(before):
    h.update(before[cid].encode())
return {"changed": changed, "digest": h.hexdigest()[:16], "md5_len": len(hashlib.md5(b"x").digest()), "name": h.name}
