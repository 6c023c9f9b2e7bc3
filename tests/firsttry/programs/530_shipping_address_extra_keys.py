# description: Ship with extra address and parcel keys the SDK says may be passed
# value: ["SH-001", "o-1005", "standard", 7, 5.5, false]
address = {"name": "Grace Hopper", "street": "1 Navy Way", "city": "Arlington",
           "postcode": "22202", "country": "US", "phone": "+1 555 0100", "floor": 3}
parcels = [{"weight_kg": 0.8, "length_cm": 25, "width_cm": 15, "height_cm": 10, "label": "mouse x2"}]
s = await tools.create_shipment(order_id="o-1005", address=address, parcels=parcels)
return [s["id"], s["order_id"], s["speed"], s["eta_days"], s["cost"], s["insured"]]
