# description: Look up 60 customer ids (some invalid) with return_exceptions=True and classify failures by e.type
# value: {"found": {"c1": "Ada Lovelace", "c2": "Grace Hopper", "c3": "Alan Turing", "c4": "Katherine Johnson", "c5": "Edsger Dijkstra", "c6": "Margaret Hamilton"}, "errors": {"LookupError": ["c0", "c7", "c8"]}}
import asyncio
ids = [f"c{i % 9}" for i in range(60)]
results = await asyncio.gather(*(tools.get_customer(customer_id=i) for i in ids), return_exceptions=True)
found, errors = {}, {}
for cid, r in zip(ids, results):
    if isinstance(r, ToolCallError):
        errors.setdefault(r.type, set()).add(cid)
    elif isinstance(r, BaseException):
        raise r
    else:
        found[cid] = r["name"]
return {"found": dict(sorted(found.items())), "errors": {k: sorted(v) for k, v in errors.items()}}
