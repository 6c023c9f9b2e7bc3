# description: Walk a long chain of parent links recursively
# value: {"depth": 599, "events": 5}
parents = {i: i - 1 for i in range(1, 600)}

def depth(node):
    if node not in parents:
        return 0
    return 1 + depth(parents[node])

events = (await tools.list_events(page_size=5))["items"]
return {"depth": depth(599), "events": len(events)}
