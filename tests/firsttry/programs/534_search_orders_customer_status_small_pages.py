# description: Collect pending or shipped orders of three customers two at a time
# value: {"pages": [[["o-1002", "shipped"], ["o-1003", "pending"]], [["o-1005", "pending"], ["o-1009", "shipped"]], [["o-1010", "pending"]]], "pending": 3}
filters = {"customer_ids": ["c1", "c2", "c6"], "status": ["pending", "shipped"]}
pages = []
cursor = None
while True:
    page = await tools.search_orders(filters=filters, cursor=cursor, limit=2)
    pages.append([(o["id"], o["status"]) for o in page["orders"]])
    if not page["next_cursor"]:
        break
    cursor = page["next_cursor"]
total = sum(o[1] == "pending" for p in pages for o in p)
return {"pages": pages, "pending": total}
