# description: Iterate events through an async generator that fixes a rejected page size and resumes from cursors
# value: {"purchases": 14, "top_ids": [5, 10, 26, 31, 47], "first_error": 4, "bad": null}
# logs: ["#  5 c2   185.99", "# 10 c3   170.99", "# 26 c5   162.99", "# 31 c6   147.99", "# 47 c2   139.99"]
async def events(page_size: int = 50):
    cursor = None
    fixed = False
    while True:
        try:
            page = await tools.list_events(cursor=cursor, page_size=page_size)
        except ToolCallError as e:
            if not fixed and "page_size" in str(e):
                page_size, fixed = 20, True
                continue
            raise
        for item in page["items"]:
            yield item
        cursor = page["next_cursor"]
        if cursor is None:
            return

purchases = [e async for e in events() if e["kind"] == "purchase"]
top = sorted(purchases, key=lambda e: (-e["amount"], e["id"]))[:5]

first_error = None
async for e in events(page_size=5):
    if e["kind"] == "error":
        first_error = e
        break

try:
    async for _ in events(page_size=0):
        pass
    bad = None
except ToolCallError as err:
    bad = {"type": err.type, "tool": err.tool_name, "code": err.code}

for e in top:
    print(f"#{e['id']:>3} {e['customer_id']} {e['amount']:>8.2f}")
return {"purchases": len(purchases), "top_ids": [e["id"] for e in top], "first_error": first_error["id"], "bad": bad}
