# description: Sign a webhook payload with HMAC-SHA256 built from hashlib
# value: {"signature": "e445a2252d41b28164580100f0ef42d05f5fbcd7734cb26c08a969c0221c3983", "long_key": "137e0abb05186d2a011e11809c6350d392cf568ab8f58221daeea3884d7cf271", "ok": true, "status": "queued"}
import hashlib
import json
import secrets

def hmac_sha256(key: bytes, msg: bytes) -> str:
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    k = key.ljust(64, b"\0")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in k) + msg).digest()
    return hashlib.sha256(bytes(b ^ 0x5C for b in k) + inner).hexdigest()

payload = json.dumps({"order": "o-1003", "event": "shipped"}, sort_keys=True).encode()
signature = hmac_sha256(b"shared-secret", payload)
long_key = hmac_sha256(b"k" * 100, payload)
receipt = await tools.send_notification(to="ada@example.com", message=f"sig={signature[:16]}")
return {"signature": signature, "long_key": long_key,
        "ok": secrets.compare_digest(signature, hmac_sha256(b"shared-secret", payload)),
        "status": receipt["status"]}
