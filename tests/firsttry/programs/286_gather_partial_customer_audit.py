# description: Audit a list of customer ids, keeping the ones that exist and explaining the rest
# value: {"found": [["c1", "enterprise", "UK", true], ["c3", "free", "UK", false], ["c5", "free", "NL", false], ["c6", "enterprise", "US", true]], "problems": [{"id": "c9", "reason": "missing", "detail": "tool \"get_customer\" raised LookupError: no customer with id 'c9'"}, {"id": "<empty>", "reason": "missing", "detail": "tool \"get_customer\" raised LookupError: no customer with id ''"}, {"id": "c12", "reason": "missing", "detail": "tool \"get_customer\" raised LookupError: no customer with id 'c12'"}]}
# logs: ["  c1 enterprise UK  paying", "  c3 free       UK  free", "  c5 free       NL  free", "  c6 enterprise US  paying", "!! c9: missing", "!! <empty>: missing", "!! c12: missing"]
import asyncio

ids = ["c1", "c3", "c9", "c5", "", "c6", "c12"]
results = await asyncio.gather(*(tools.get_customer(customer_id=i) for i in ids), return_exceptions=True)

found, problems = [], []
for cid, res in zip(ids, results):
    match res:
        case ToolCallError(type="LookupError") as err:
            problems.append({"id": cid or "<empty>", "reason": "missing", "detail": str(err)})
        case ToolCallError() as err:
            problems.append({"id": cid or "<empty>", "reason": err.code or "error", "detail": str(err)})
        case BaseException() as err:
            problems.append({"id": cid, "reason": type(err).__name__, "detail": repr(err)})
        case {"id": str(id_), "tier": "enterprise" | "pro" as tier, "address": {"country": country}}:
            found.append((id_, tier, country, True))
        case {"id": str(id_), "tier": tier, "address": {"country": country}}:
            found.append((id_, tier, country, False))
        case _:
            problems.append({"id": cid, "reason": "shape", "detail": type(res).__name__})

for id_, tier, country, paying in found:
    print(f"{id_:>4} {tier:<10} {country:<3} {'paying' if paying else 'free'}")
for p in problems:
    print(f"!! {p['id']}: {p['reason']}")
return {"found": [list(f) for f in found], "problems": problems}
