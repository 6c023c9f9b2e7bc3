# description: Stop paging as soon as the first error event is found
# value: {"first_error": 4, "pages": 1, "closed": true}
stats = {"pages": 0, "closed": False}

async def events():
    cursor = None
    try:
        while True:
            page = await tools.list_events(cursor=cursor, page_size=4)
            stats["pages"] += 1
            for e in page["items"]:
                yield e
            cursor = page["next_cursor"]
            if cursor is None:
                break
    finally:
        stats["closed"] = True

gen = events()
first_error = None
async for e in gen:
    if e["kind"] == "error":
        first_error = e
        break
await gen.aclose()
return {"first_error": first_error["id"], "pages": stats["pages"], "closed": stats["closed"]}
