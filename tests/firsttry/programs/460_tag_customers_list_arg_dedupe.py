# description: Tag every pro customer with two tags (from a set, converted to a sorted list)
# value: [{"id": "c2", "tags": ["beta", "renewal-2024"]}, {"id": "c4", "tags": ["vip", "beta", "renewal-2024"]}]
new_tags = {"renewal-2024", "beta"}
updated = []
for c in await tools.list_customers(tier="pro"):
    result = await tools.tag_customer(customer_id=c["id"], tags=sorted(new_tags))
    updated.append({"id": result["id"], "tags": result["tags"]})
return updated
