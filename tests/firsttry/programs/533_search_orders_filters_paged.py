# description: Page through orders over 100 EUR created after May with the largest page
# value: {"pages": 1, "orders": ["o-1001", "o-1002", "o-1003", "o-1009", "o-1010"]}
filters = {"min_total": 100.0, "created_after": "2024-05-01"}
cursor = None
pages = 0
found = []
while True:
    page = await tools.search_orders(filters=filters, cursor=cursor, limit=10)
    pages += 1
    found.extend(o["id"] for o in page["orders"])
    cursor = page["next_cursor"]
    if cursor is None:
        break
return {"pages": pages, "orders": found}
