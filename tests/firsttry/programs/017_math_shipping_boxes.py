# description: Work out shipping boxes for pending orders
# value: {"plan": [{"order": "o-1008", "units": 10, "boxes": 3, "fill": 0.833}], "total_boxes": 3, "pallet_side": 1, "is_square": false}
import math

BOX_CAPACITY = 4

orders = await tools.list_orders(customer_id="c4", status="pending")
plan = []
for order in orders:
    units = sum(line["quantity"] for line in order["lines"])
    boxes = math.ceil(units / BOX_CAPACITY)
    plan.append({
        "order": order["id"],
        "units": units,
        "boxes": boxes,
        "fill": round(units / (boxes * BOX_CAPACITY), 3),
    })

total_boxes = sum(p["boxes"] for p in plan)
side = math.sqrt(total_boxes)
return {"plan": plan, "total_boxes": total_boxes, "pallet_side": math.floor(side),
        "is_square": math.isclose(side, round(side))}
