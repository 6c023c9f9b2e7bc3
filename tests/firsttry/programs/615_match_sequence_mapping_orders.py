# description: Decide shipping plans for pending orders with sequence and mapping patterns
# value: {"o-1003": "two items: HS-07+HD-10 (vip)", "o-1005": "two items: MS-02+CB-05", "o-1008": "bulk box of 10 x CB-05", "o-1010": "two items: LP-14+KB-01 (vip)"}
orders = (await tools.search_orders(filters={"status": ["pending"]}, limit=10))["orders"]
full = [await tools.get_order(order_id=o["id"]) for o in orders]

plans = {}
for order in full:
    match order["lines"]:
        case []:
            plan = "nothing to ship"
        case [{"quantity": 1, "name": name}]:
            plan = f"small parcel: {name}"
        case [{"sku": sku, "quantity": q}] if q >= 5:
            plan = f"bulk box of {q} x {sku}"
        case [first, second]:
            plan = f"two items: {first['sku']}+{second['sku']}"
        case [first, *rest]:
            plan = f"{first['sku']} and {len(rest)} more"
    match order:
        case {"total": float(t)} if t > 300:
            plan += " (insure)"
        case {"customer_id": "c6" | "c1"}:
            plan += " (vip)"
    plans[order["id"]] = plan
return plans
