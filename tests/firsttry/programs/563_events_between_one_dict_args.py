# description: Count audit events per day window through the argument-dict tool
# value: [{"from": "2024-06-10", "to": "2024-06-11", "count": 19, "first": [1, 2]}, {"from": "2024-06-12", "to": "2024-06-12", "count": 10, "first": [20, 21]}, {"from": "2024-06-13", "to": "9999-12-31", "count": 18, "first": [30, 31]}]
windows = [("2024-06-10", "2024-06-11"), ("2024-06-12", "2024-06-12"), ("2024-06-13", None)]
out = []
for start, end in windows:
    args = {"from": start}
    if end is not None:
        args["to"] = end
    r = await tools.events_between(args)
    out.append({"from": r["from"], "to": r["to"], "count": r["count"], "first": r["ids"][:2]})
return out
