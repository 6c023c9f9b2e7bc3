# description: Show that omitting optional parameters gives the documented defaults
# value: {"same_forecast": true, "days": 3, "hits": 4, "page": 10, "priority": "normal"}
a = await tools.forecast(city="Paris")
b = await tools.forecast(city="Paris", days=3)
hits = await tools.search_docs(query="order")
page = await tools.list_events()
t = await tools.create_ticket(customer_id="c5", subject="Question")
return {"same_forecast": a == b, "days": len(a), "hits": len(hits), "page": len(page["items"]), "priority": t["priority"]}
