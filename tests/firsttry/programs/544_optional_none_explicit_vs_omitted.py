# description: Compare optional filters passed as None and omitted
# value: {"customers_same": true, "c6_orders": ["o-1009", "o-1010", "o-1011"], "delivered": ["o-1011"], "log_lines": 12, "products": 7}
a = await tools.list_customers(tier=None)
b = await tools.list_customers()
c = await tools.list_orders(customer_id="c6", status=None)
d = await tools.list_orders(customer_id="c6", status="delivered")
e = await tools.fetch_logs(service=None)
f = await tools.list_products(category=None)
return {"customers_same": a == b, "c6_orders": [o["id"] for o in c], "delivered": [o["id"] for o in d],
        "log_lines": len(e.splitlines()), "products": len(f)}
