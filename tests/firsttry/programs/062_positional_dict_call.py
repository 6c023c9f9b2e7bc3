# description: Fetch an order and its customer using dict arguments
# value: {"order": "o-1002", "customer": "Ada Lovelace", "country": "UK", "shipped_orders": ["o-1002"]}
order = await tools.get_order({"order_id": "o-1002"})
customer = await tools.get_customer({"customer_id": order["customer_id"]})
args = {"customer_id": customer["id"], "status": "shipped"}
shipped = await tools.list_orders(**args)
return {
    "order": order["id"],
    "customer": customer["name"],
    "country": customer["address"]["country"],
    "shipped_orders": [o["id"] for o in shipped],
}
