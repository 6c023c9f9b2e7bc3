# description: Check page size limits of the event log and recover with the default
# value: {"errors": [{"size": 0, "type": "ValueError", "code": null}, {"size": 21, "type": "ValueError", "code": null}], "default_items": 10, "next": "cur_10"}
errors = []
for size in (0, 21):
    try:
        await tools.list_events(page_size=size)
    except ToolCallError as e:
        errors.append({"size": size, "type": e.type, "code": e.code})
page = await tools.list_events()
return {"errors": errors, "default_items": len(page["items"]), "next": page["next_cursor"]}
