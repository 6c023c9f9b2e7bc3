# description: Look up several customers, tolerating missing ones
# value: {"found": ["Ada Lovelace", "Alan Turing"], "missing": [{"id": "c9", "tool": "get_customer"}, {"id": "x-42", "tool": "get_customer"}]}
# logs: ["Could not load c9: tool \"get_customer\" raised LookupError: no customer with id 'c9'", "Could not load x-42: tool \"get_customer\" raised LookupError: no customer with id 'x-42'"]
found = []
missing = []
for customer_id in ["c1", "c9", "c3", "x-42"]:
    try:
        customer = await tools.get_customer(customer_id=customer_id)
        found.append(customer["name"])
    except ToolCallError as e:
        print(f"Could not load {customer_id}: {e}")
        missing.append({"id": customer_id, "tool": e.tool_name})

return {"found": found, "missing": missing}
