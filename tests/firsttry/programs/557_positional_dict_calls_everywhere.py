# description: Call several tools with one argument dict each
# value: {"ticket": ["T-101", "high", "open"], "hits": ["kb-5", "kb-2"], "rate": 199.411765, "days": ["2024-06-15", "2024-06-16", "2024-06-17"]}
args = {"customer_id": "c4", "subject": "Monitor flickers", "priority": "high"}
ticket = await tools.create_ticket(args)
hits = await tools.search_docs({"query": "shipping address", "limit": 2})
rate = await tools.get_exchange_rate({"base": "GBP", "quote": "JPY"})
days = await tools.forecast({"city": "new york"})
return {"ticket": [ticket["id"], ticket["priority"], ticket["status"]], "hits": [h["id"] for h in hits],
        "rate": rate, "days": [d["date"] for d in days]}
