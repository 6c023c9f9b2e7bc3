# description: Look up customers by email, some unknown
# value: {"lookups": {"grace@example.com": {"id": "c2", "tier": "pro"}, "nobody@example.com": null, "ALAN@example.com": {"id": "c3", "tier": "free"}}, "known": 2}
emails = ["grace@example.com", "nobody@example.com", "ALAN@example.com"]
result = {}
for email in emails:
    customer = await tools.find_customer(email=email)
    if customer is None:
        result[email] = None
    else:
        result[email] = {"id": customer["id"], "tier": customer["tier"]}

known = sum(1 for v in result.values() if v is not None)
return {"lookups": result, "known": known}
