# description: Page through every order over 100 EUR with search_orders until next_cursor is None
# value: ["o-1001", "o-1002", "o-1003", "o-1007", "o-1009", "o-1010"]
# logs: ["6 orders over 100 EUR in 2 pages"]
found = []
cursor = None
pages = 0
while True:
    page = await tools.search_orders(filters={"min_total": 100.0}, cursor=cursor, limit=3)
    pages += 1
    found.extend(o["id"] for o in page["orders"])
    cursor = page["next_cursor"]
    if cursor is None:
        break
print(f"{len(found)} orders over 100 EUR in {pages} pages")
return found
