# description: Create tickets idempotently with uuid5 keys, sha256 fingerprints, base64 refs and secrets tokens
# value: {"log": ["created T-101 1ca8e688", "created T-102 3c498cf2", "skip duplicate 1ca8e688", "created T-103 f49f94c0"], "tickets": ["T-101", "T-102", "T-103"], "fingerprint": "449f6226f28b8edf", "ref": "Pz4cK9rNx9JO", "token_len": true, "version": 5, "back": "3f3e1c", "same": true}
import uuid
import hashlib
import base64
import secrets
import json

NS = uuid.uuid5(uuid.NAMESPACE_URL, "https://support.example.com/tickets")
issued: dict[str, str] = {}
log = []
requests = [("c1", "Monitor arrived damaged"), ("c4", "Wrong cable length"), ("c1", "Monitor arrived damaged"), ("c2", "Refund status")]
for cid, subject in requests:
    key = uuid.uuid5(NS, f"{cid}:{subject.casefold()}")
    if str(key) in issued:
        log.append(f"skip duplicate {key.hex[:8]}")
        continue
    t = await tools.create_ticket(customer_id=cid, subject=subject)
    issued[str(key)] = t["id"]
    log.append(f"created {t['id']} {key.hex[:8]}")

payload = json.dumps(issued, sort_keys=True).encode()
digest = hashlib.sha256(payload).hexdigest()
ref = base64.urlsafe_b64encode(hashlib.blake2b(payload, digest_size=9).digest()).decode()
token = secrets.token_urlsafe(16)
return {
    "log": log,
    "tickets": sorted(issued.values()),
    "fingerprint": digest[:16],
    "ref": ref,
    "token_len": len(token) >= 20,
    "version": NS.version,
    "back": base64.urlsafe_b64decode(ref.encode())[:3].hex(),
    "same": secrets.compare_digest(digest, hashlib.sha256(payload).hexdigest()),
}
