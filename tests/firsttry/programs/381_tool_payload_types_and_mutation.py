# description: Inspect and enrich tool payloads in place, checking their container types before relying on them
# value: {"checks": {"order_is_dict": true, "order_type": "dict", "lines_type": "list", "mapping": true, "mutable_mapping": true, "lines_mutable": true, "products_seq": true, "product_type": "dict", "address_type": "dict", "exact_dict": true}, "total": 197.75, "snapshot_total": 188.0, "snapshot_lines": 2, "popped": "CB-05", "keys": ["id", "customer_id", "status", "created", "lines", "total", "customer", "notes"], "merged_status": "review", "tags": ["vip", "beta", "enriched"], "city": "LONDON", "first_product": ["KB-01", 13], "json_len": 573, "eq": true}
# logs: ["{\"order_is_dict\": true, \"order_type\": \"dict\", \"lines_type\": \"list\", \"mapping\": true, \"mutable_mapping\": true, \"lines_mutable\": true, \"products_seq\": true, \"product_type\": \"dict\", \"address_type\": \"dict\", \"exact_dict\": true}"]
from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence
import copy
import json

order = await tools.get_order(order_id="o-1003")
customer = await tools.get_customer(customer_id=order["customer_id"])
products = await tools.list_products()

checks = {
    "order_is_dict": isinstance(order, dict),
    "order_type": type(order).__name__,
    "lines_type": type(order["lines"]).__name__,
    "mapping": isinstance(order, Mapping),
    "mutable_mapping": isinstance(order, MutableMapping),
    "lines_mutable": isinstance(order["lines"], MutableSequence),
    "products_seq": isinstance(products, Sequence),
    "product_type": type(products[0]).__name__,
    "address_type": type(customer["address"]).__name__,
    "exact_dict": type(order) is dict,
}

snapshot = copy.deepcopy(order)
order["lines"].append({"sku": "CB-05", "name": "Braided cable", "quantity": 1, "unit_price": 9.75})
order["total"] = round(sum(l["quantity"] * l["unit_price"] for l in order["lines"]), 2)
order["customer"] = customer
del order["currency"]
order.setdefault("notes", []).append("added cable")
customer["tags"].append("enriched")
customer["address"]["city"] = customer["address"]["city"].upper()
order["lines"].sort(key=lambda l: l["unit_price"])
popped = order["lines"].pop(0)
merged = order | {"status": "review"}
keys = list(order.keys())

products[0]["in_stock"] -= 1
products.reverse()
print(json.dumps(checks))
return {
    "checks": checks,
    "total": order["total"],
    "snapshot_total": snapshot["total"],
    "snapshot_lines": len(snapshot["lines"]),
    "popped": popped["sku"],
    "keys": keys,
    "merged_status": merged["status"],
    "tags": customer["tags"],
    "city": order["customer"]["address"]["city"],
    "first_product": [products[-1]["sku"], products[-1]["in_stock"]],
    "json_len": len(json.dumps(order, sort_keys=True)),
    "eq": snapshot == json.loads(json.dumps(snapshot)),
}
