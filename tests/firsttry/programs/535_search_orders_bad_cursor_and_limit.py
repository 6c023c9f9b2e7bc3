# description: Show the errors for a made-up cursor and an out-of-range page size
# value: {"cursor": ["ValueError", "bad cursor 'page-2': pass the next_cursor of the previous page"], "limit": ["ValueError", "limit must be between 1 and 10, got 11"], "zero": ["ValueError", "limit must be between 1 and 10, got 0"], "default_page": [4, "ord_4"]}
out = {}
for label, kwargs in {"cursor": {"cursor": "page-2"}, "limit": {"limit": 11}, "zero": {"limit": 0}}.items():
    try:
        await tools.search_orders(**kwargs)
        out[label] = "ok"
    except ToolCallError as e:
        out[label] = [e.type, str(e).split(": ", 1)[1]]
first = await tools.search_orders()
out["default_page"] = [len(first["orders"]), first["next_cursor"]]
return out
