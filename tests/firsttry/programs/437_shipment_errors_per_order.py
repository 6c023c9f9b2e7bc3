# description: Try to ship three orders, collecting which ones fail and why
# value: {"o-1008": {"ok": true, "id": "SH-001", "cost": 7.0}, "o-1009": {"ok": false, "type": "ValueError", "tool": "create_shipment", "why": "order o-1009 is shipped; only pending orders ship"}, "o-9999": {"ok": false, "type": "LookupError", "tool": "create_shipment", "why": "no order with id 'o-9999'"}}
address = {"name": "Ops", "street": "1 Dock Rd", "city": "London", "postcode": "E1 1AA", "country": "UK"}
box = {"weight_kg": 2.0, "length_cm": 50, "width_cm": 40, "height_cm": 30}
results = {}
for order_id in ["o-1008", "o-1009", "o-9999"]:
    try:
        s = await tools.create_shipment(order_id=order_id, address=address, parcels=[box])
        results[order_id] = {"ok": True, "id": s["id"], "cost": s["cost"]}
    except ToolCallError as e:
        results[order_id] = {"ok": False, "type": e.type, "tool": e.tool_name, "why": str(e).split(": ", 1)[1]}
return results
