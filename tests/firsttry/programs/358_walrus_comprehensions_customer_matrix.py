# description: Build customer/order matrices with comprehension-heavy code and assignment expressions
# value: {"nonzero": {"c1": {"CB-05": 3, "HD-10": 1, "HS-07": 1, "KB-01": 1, "MN-27": 2}, "c2": {"CB-05": 2, "LP-14": 1, "MS-02": 2}, "c3": {"KB-01": 1}, "c4": {"CB-05": 10, "HD-10": 2, "MN-27": 1}, "c6": {"HD-10": 1, "HS-07": 3, "KB-01": 2, "LP-14": 2}}, "big_spenders": [["c1", 866.23], ["c4", 455.49], ["c6", 754.0]], "last_total": 754.0, "columns_first": [3, 2, 0, 10, 0, 0], "transposed_eq": true, "never_ordered": [], "by_tier": {"enterprise": ["c1", "c6"], "free": ["c3", "c5"], "pro": ["c2", "c4"]}, "pairs": [["c1", "c6"], ["c2", "c4"], ["c3", "c5"]], "dutch": "Edsger Dijkstra", "running": [0, 3, 10, 11, 20, 24], "acc": 24, "chunks": [[3, 7], [1, 9], [4]], "nested_if": [3, 7, 1, -4], "gen_max": [559.98, "o-1002"], "matrix_sum": 35}
# logs: ["5 customers with orders; big spenders [('c1', 866.23), ('c4', 455.49), ('c6', 754.0)]"]
customers = await tools.list_customers()
orders = {c["id"]: await tools.list_orders(customer_id=c["id"]) for c in customers}
products = {p["sku"]: p for p in await tools.list_products()}

matrix = {
    c["id"]: {sku: sum(l["quantity"] for o in orders[c["id"]] for l in o["lines"] if l["sku"] == sku) for sku in sorted(products)}
    for c in customers
}
nonzero = {cid: {k: v for k, v in row.items() if v} for cid, row in matrix.items() if any(row.values())}
big_spenders = [(c["id"], total) for c in customers if (total := round(sum(o["total"] for o in orders[c["id"]]), 2)) > 300]
last_total = total
columns = [[matrix[cid][sku] for cid in matrix] for sku in sorted(products)]
transposed = [list(col) for col in zip(*[list(row.values()) for row in matrix.values()])]
flat_skus = {l["sku"] for os in orders.values() for o in os for l in o["lines"]}
never_ordered = sorted(set(products) - flat_skus)
by_tier = {t: [c["id"] for c in customers if c["tier"] == t] for t in {c["tier"] for c in customers}}
pairs = [(a["id"], b["id"]) for i, a in enumerate(customers) for b in customers[i + 1:] if a["tier"] == b["tier"]]
if any((hit := c)["address"]["country"] == "NL" for c in customers):
    dutch = hit["name"]
data = [3, 7, 1, 9, 4]
running = [acc := 0] + [acc := acc + x for x in data]
chunks = [data[i:i + 2] for i in range(0, len(data), 2)]
nested_if = [x if x % 2 else -x for x in data if x != 9]
gen_max = max((o["total"], o["id"]) for os in orders.values() for o in os)
matrix_sum = sum(map(sum, (row.values() for row in matrix.values())))
print(f"{len(nonzero)} customers with orders; big spenders {big_spenders}")
return {
    "nonzero": nonzero,
    "big_spenders": big_spenders,
    "last_total": last_total,
    "columns_first": columns[0],
    "transposed_eq": transposed == columns,
    "never_ordered": never_ordered,
    "by_tier": {k: by_tier[k] for k in sorted(by_tier)},
    "pairs": pairs,
    "dutch": dutch,
    "running": running,
    "acc": acc,
    "chunks": chunks,
    "nested_if": nested_if,
    "gen_max": list(gen_max),
    "matrix_sum": matrix_sum,
}
