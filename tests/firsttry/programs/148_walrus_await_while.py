# description: Loop over pages with an assignment expression around await
# value: {"seen": 47, "largest": 27, "last_page_doubled": [161.98, 235.98, 131.98, 279.98]}
seen = 0
largest = None
cursor = None
while (page := await tools.list_events(cursor=cursor, page_size=12))["items"]:
    seen += len(page["items"])
    if (top := max(page["items"], key=lambda e: e["amount"]))["amount"] > (largest or {"amount": -1})["amount"]:
        largest = top
    if not (cursor := page["next_cursor"]):
        break
filtered = [y for e in page["items"] if (y := e["amount"] * 2) > 100]
return {"seen": seen, "largest": largest["id"], "last_page_doubled": filtered}
