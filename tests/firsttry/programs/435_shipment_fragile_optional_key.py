# description: Ship order o-1010 with one fragile parcel, insured, overnight
# value: {"id": "SH-001", "speed": "overnight", "insured": true, "total_weight_kg": 4.8, "cost": 33.36, "eta_days": 3}
order = await tools.get_order(order_id="o-1010")
customer = await tools.get_customer(customer_id=order["customer_id"])
address = dict(customer["address"])
address["name"] = customer["name"]
parcels = []
for line in order["lines"]:
    parcel = {"weight_kg": 1.2 * line["quantity"], "length_cm": 40, "width_cm": 30, "height_cm": 15}
    if line["sku"] == "LP-14":
        parcel["fragile"] = True
    parcels.append(parcel)
shipment = await tools.create_shipment(order_id=order["id"], address=address, parcels=parcels, speed="overnight", insured=True)
return {k: shipment[k] for k in ("id", "speed", "insured", "total_weight_kg", "cost", "eta_days")}
