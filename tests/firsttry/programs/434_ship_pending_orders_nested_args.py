# description: Ship every pending order of customer c1 by express to the customer's address
# value: {"shipped": ["o-1003"], "total_cost": 10.25}
# logs: ["SH-001: o-1003 -> London, 2 parcels, EUR 10.25"]
customer = await tools.get_customer(customer_id="c1")
addr = customer["address"]
pending = await tools.list_orders(customer_id="c1", status="pending")
shipments = []
for order in pending:
    parcels = [
        {"weight_kg": 0.5 * line["quantity"], "length_cm": 30, "width_cm": 20, "height_cm": 10}
        for line in order["lines"]
    ]
    shipment = await tools.create_shipment(
        order_id=order["id"],
        address={
            "name": customer["name"],
            "street": addr["street"],
            "city": addr["city"],
            "postcode": addr["postcode"],
            "country": addr["country"],
        },
        parcels=parcels,
        speed="express",
    )
    print(f"{shipment['id']}: {order['id']} -> {addr['city']}, {shipment['parcels']} parcels, EUR {shipment['cost']:.2f}")
    shipments.append(shipment)
return {"shipped": [s["order_id"] for s in shipments], "total_cost": round(sum(s["cost"] for s in shipments), 2)}
