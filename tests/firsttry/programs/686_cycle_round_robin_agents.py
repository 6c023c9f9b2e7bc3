# description: Round-robin open tickets over on-call support agents with itertools.cycle
# value: {"agents": ["Ines", "Kemal", "Noor", "Otto"], "assignment": {"o-1003": "Ines", "o-1005": "Kemal", "o-1008": "Noor", "o-1010": "Otto"}, "firsts": ["o-1003", "o-1005"], "rest": ["o-1008", "o-1010"]}
import itertools

agents = []
token = None
while True:
    kwargs = {"page_token": token} if token else {}
    page = await tools.list_support_agents(**kwargs)
    agents += [a["name"] for a in page["agents"] if a["on_call"]]
    token = page.get("next_page_token")
    if not token:
        break
pending = []
for cid in ["c1", "c2", "c4", "c6"]:
    pending += [o["id"] for o in await tools.list_orders(customer_id=cid, status="pending")]
assignment = dict(zip(pending, itertools.cycle(agents)))
firsts = list(itertools.takewhile(lambda oid: oid < "o-1008", pending))
rest = list(itertools.dropwhile(lambda oid: oid < "o-1008", pending))
return {"agents": agents, "assignment": assignment, "firsts": firsts, "rest": rest}
