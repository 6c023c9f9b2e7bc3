# description: Look up several emails; find_customer returns None for unknown ones
# value: {"ADA@example.com": {"id": "c1", "tags": ["vip", "beta"]}, "nobody@example.com": null, "margaret@example.com": {"id": "c6", "tags": ["vip"]}, "grace@example.org": null}
emails = ["ADA@example.com", "nobody@example.com", " margaret@example.com ", "grace@example.org"]
out = {}
for email in emails:
    c = await tools.find_customer(email=email)
    if c is None:
        out[email.strip()] = None
        continue
    out[email.strip()] = {"id": c["id"], "tags": c.get("tags", [])}
return out
