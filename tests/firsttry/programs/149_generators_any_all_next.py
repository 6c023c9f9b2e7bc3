# description: Answer yes/no questions about customers with generator expressions
# value: {"any_cancelled": true, "all_have_email": true, "every_vip_has_orders": true, "first_uk_free": "Alan Turing", "first_jp": null, "total_lines": 16, "empty_any": false, "empty_all": true, "sum_start": [1, 2, 3]}
import asyncio

customers = await tools.list_customers()
orders = dict(zip([c["id"] for c in customers], await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers))))
first_uk_free = next((c["name"] for c in customers if c["tier"] == "free" and c["address"]["country"] == "UK"), None)
first_jp = next((c for c in customers if c["address"]["country"] == "JP"), None)
return {
    "any_cancelled": any(o["status"] == "cancelled" for os_ in orders.values() for o in os_),
    "all_have_email": all("@" in c["email"] for c in customers),
    "every_vip_has_orders": all(orders[c["id"]] for c in customers if "vip" in c["tags"]),
    "first_uk_free": first_uk_free,
    "first_jp": first_jp,
    "total_lines": sum(len(o["lines"]) for os_ in orders.values() for o in os_),
    "empty_any": any([]),
    "empty_all": all(()),
    "sum_start": sum([[1], [2, 3]], []),
}
