# description: Look up many customers and cities at once with gather(return_exceptions=True) and sort failures by tool and type
# value: {"ok": ["Ada Lovelace", "Alan Turing", "Oslo"], "failed": [{"tool": "get_customer", "type": "LookupError", "code": null, "first_words": "tool \"get_customer\" raised LookupError"}, {"tool": "get_weather", "type": "LookupError", "code": null, "first_words": "tool \"get_weather\" raised LookupError"}, {"tool": "forecast", "type": "ValueError", "code": null, "first_words": "tool \"forecast\" raised ValueError"}], "all_exceptions": true}
import asyncio

calls = [tools.get_customer(customer_id=c) for c in ["c1", "c9", "c3"]] + \
        [tools.get_weather(city=c) for c in ["Oslo", "Atlantis"]] + [tools.forecast(city="Paris", days=9)]
results = await asyncio.gather(*calls, return_exceptions=True)
ok, failed = [], []
for r in results:
    if isinstance(r, ToolCallError):
        failed.append({"tool": r.tool_name, "type": r.type, "code": r.code, "first_words": str(r).split(":")[0]})
    elif isinstance(r, BaseException):
        failed.append({"tool": None, "type": type(r).__name__})
    else:
        ok.append(r.get("name") or r.get("city"))
return {"ok": ok, "failed": failed, "all_exceptions": all(isinstance(r, Exception) for r in results if not isinstance(r, dict))}
