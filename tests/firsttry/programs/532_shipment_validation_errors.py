# description: Report why shipments fail for empty, weightless and shipped orders
# value: {"empty": {"type": "ValueError", "code": null, "message": "tool \"create_shipment\" raised ValueError: parcels is empty: give at least one parcel"}, "weightless": {"type": "ValueError", "code": null, "message": "tool \"create_shipment\" raised ValueError: parcels[1].weight_kg must be positive, got 0.0"}, "shipped": {"type": "ValueError", "code": null, "message": "tool \"create_shipment\" raised ValueError: order o-1002 is shipped; only pending orders ship"}, "unknown": {"type": "LookupError", "code": null, "message": "tool \"create_shipment\" raised LookupError: no order with id 'o-0000'"}}
address = {"name": "Ada", "street": "1 Road", "city": "London", "postcode": "N1 1AA", "country": "UK"}
box = {"weight_kg": 1.0, "length_cm": 10, "width_cm": 10, "height_cm": 10}
attempts = {
    "empty": ("o-1003", []),
    "weightless": ("o-1003", [box, {**box, "weight_kg": 0}]),
    "shipped": ("o-1002", [box]),
    "unknown": ("o-0000", [box]),
}
report = {}
for label, (order_id, parcels) in attempts.items():
    try:
        await tools.create_shipment(order_id=order_id, address=address, parcels=parcels)
        report[label] = "shipped"
    except ToolCallError as e:
        report[label] = {"type": e.type, "code": e.code, "message": str(e)}
return report
