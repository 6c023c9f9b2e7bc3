# description: Wrap the paginated order search in an async generator and follow ids to full orders
# value: {"CB-05": 3, "HD-10": 3, "KB-01": 1, "LP-14": 1, "MN-27": 1}
async def all_orders(filters):
    cursor = None
    while True:
        page = await tools.search_orders(filters=filters, cursor=cursor, limit=2)
        for summary in page["orders"]:
            yield summary
        cursor = page["next_cursor"]
        if not cursor:
            return

skus = {}
async for summary in all_orders({"status": ["delivered"]}):
    order = await tools.get_order(order_id=summary["id"])
    for line in order["lines"]:
        skus[line["sku"]] = skus.get(line["sku"], 0) + line["quantity"]
return dict(sorted(skus.items(), key=lambda kv: (-kv[1], kv[0])))
