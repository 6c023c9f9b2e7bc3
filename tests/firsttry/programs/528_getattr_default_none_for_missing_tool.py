# description: Pick the first available tool among candidates with getattr default
# value: {"chosen": "get_customer", "name": "Grace Hopper", "tier": "pro"}
candidates = ["lookup_customer", "get_customer"]
chosen = None
for name in candidates:
    if getattr(tools, name, None) is not None:
        chosen = name
        break
customer = await getattr(tools, chosen)(customer_id="c2")
return {"chosen": chosen, "name": customer["name"], "tier": customer["tier"]}
