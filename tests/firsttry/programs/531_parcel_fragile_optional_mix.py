# description: Compare shipment cost with and without fragile parcels across speeds
# value: [{"speed": "standard", "plain": 8.25, "fragile": 11.25, "eta": 7, "ids": ["SH-001", "SH-002"]}, {"speed": "express", "plain": 12.75, "fragile": 15.75, "eta": 4, "ids": ["SH-003", "SH-004"]}, {"speed": "overnight", "plain": 22.75, "fragile": 25.75, "eta": 3, "ids": ["SH-005", "SH-006"]}]
import asyncio
address = {"name": "Margaret Hamilton", "street": "77 Massachusetts Ave", "city": "Boston",
           "postcode": "02139", "country": "US"}
plain = [{"weight_kg": 3.0, "length_cm": 50, "width_cm": 40, "height_cm": 30}]
fragile = [{"weight_kg": 3.0, "length_cm": 50, "width_cm": 40, "height_cm": 30, "fragile": True}]
rows = []
for speed in ("standard", "express", "overnight"):
    a = await tools.create_shipment(order_id="o-1010", address=address, parcels=plain, speed=speed)
    b = await tools.create_shipment(order_id="o-1010", address=address, parcels=fragile, speed=speed)
    rows.append({"speed": speed, "plain": a["cost"], "fragile": b["cost"], "eta": a["eta_days"],
                 "ids": [a["id"], b["id"]]})
return rows
