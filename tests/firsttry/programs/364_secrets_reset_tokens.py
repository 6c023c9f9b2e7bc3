# description: Issue one-time reset tokens for free-tier customers and notify them
# value: {"issued": [{"customer": "c3", "receipt": "ntf-1", "digest_len": 64, "token_ok": true}, {"customer": "c5", "receipt": "ntf-2", "digest_len": 64, "token_ok": true}], "pin_len": 6, "compare": true, "hex_len": 16}
# logs: ["issued 2 tokens"]
import hashlib
import secrets

free = await tools.list_customers(tier="free")
issued = []
for c in free:
    token = secrets.token_urlsafe(16)
    digest = hashlib.sha256(token.encode()).hexdigest()
    receipt = await tools.send_notification(
        to=c["email"], message=f"Your reset code: {token[:6]}... (valid 15 minutes)"
    )
    issued.append({"customer": c["id"], "receipt": receipt["id"], "digest_len": len(digest),
                   "token_ok": len(token) >= 20})

pin = "".join(secrets.choice("0123456789") for _ in range(6))
same = secrets.compare_digest("abc", "abc")
print(f"issued {len(issued)} tokens")
return {"issued": issued, "pin_len": len(pin), "compare": same, "hex_len": len(secrets.token_hex(8))}
