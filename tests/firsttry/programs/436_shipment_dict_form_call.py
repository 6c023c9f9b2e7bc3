# description: Ship order o-1005 using the single-dict call form built up step by step
# value: [2, 0.8, 5.5, 7, "standard"]
args = {"order_id": "o-1005"}
args["address"] = {"name": "Grace Hopper", "street": "1 Navy Way", "city": "Arlington", "postcode": "22202", "country": "US"}
args["parcels"] = [{"weight_kg": 0.4, "length_cm": 20, "width_cm": 15, "height_cm": 8}] * 2
result = await tools.create_shipment(args)
return [result["parcels"], result["total_weight_kg"], result["cost"], result["eta_days"], result["speed"]]
