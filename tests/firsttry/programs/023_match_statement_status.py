# description: Decide the next action for each of Ada's orders
# value: {"o-1001": "follow up", "o-1002": "follow up on 27-inch monitor", "o-1003": "review before shipping"}
orders = await tools.list_orders(customer_id="c1")

actions = {}
for order in orders:
    match order:
        case {"status": "pending", "total": total} if total > 100:
            actions[order["id"]] = "review before shipping"
        case {"status": "pending"}:
            actions[order["id"]] = "ship"
        case {"status": "shipped" | "delivered", "lines": [single]}:
            actions[order["id"]] = f"follow up on {single['name']}"
        case {"status": "shipped" | "delivered"}:
            actions[order["id"]] = "follow up"
        case _:
            actions[order["id"]] = "nothing"

return actions
