# description: Convert a set and integer keys before returning them as JSON
# value: {"customers": ["c1", "c2", "c3", "c4", "c5", "c6"], "by_hour": {"1": 1, "2": 1, "4": 1, "5": 1, "6": 1, "7": 1, "8": 1, "9": 1, "11": 1, "12": 1, "13": 1, "14": 1, "15": 1, "16": 1, "18": 1, "19": 1, "20": 1, "21": 1, "22": 1, "23": 1}}
events = (await tools.list_events(page_size=20))["items"]
customers = {e["customer_id"] for e in events}
by_hour = {}
for e in events:
    hour = int(e["at"][11:13])
    by_hour[hour] = by_hour.get(hour, 0) + 1
return {"customers": sorted(customers), "by_hour": {str(h): n for h, n in sorted(by_hour.items())}}
