# description: Sign a webhook payload for each notification with hmac and sha256
# value: {"signature": "e445a2252d41b28164580100f0ef42d05f5fbcd7734cb26c08a969c0221c3983", "ok": true, "status": "queued"}
# limitation: the hmac module is not available in run_code; the refusal gives HMAC-SHA256 written with hashlib
import hmac
import hashlib
import json

secret = b"shared-secret"
payload = json.dumps({"order": "o-1003", "event": "shipped"}, sort_keys=True).encode()
signature = hmac.new(secret, payload, hashlib.sha256).hexdigest()
ok = hmac.compare_digest(signature, hmac.new(secret, payload, hashlib.sha256).hexdigest())
receipt = await tools.send_notification(to="ada@example.com", message=f"sig={signature[:16]}")
return {"signature": signature, "ok": ok, "status": receipt["status"]}
