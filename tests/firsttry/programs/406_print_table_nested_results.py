# description: Print an aligned text table of customers with order stats and return a nested summary
# value: {"by_country": {"UK": {"customers": ["c1", "c3"], "spent": 866.23, "tiers": {"enterprise": 1, "free": 1}}, "US": {"customers": ["c2", "c4", "c6"], "spent": 1324.99, "tiers": {"pro": 2, "enterprise": 1}}, "NL": {"customers": ["c5"], "spent": 0.0, "tiers": {"free": 1}}}, "top": {"id": "c1", "name": "Ada Lovelace", "tier": "enterprise", "orders": 3, "spent": 866.23, "statuses": {"delivered": 1, "shipped": 1, "pending": 1}, "address": {"city": "London", "country": "UK"}}, "total": 2191.22}
# logs: ["ID | Name              |    Tier    | Orders |  Spent", "----+-------------------+------------+--------+--------", "c1 | Ada Lovelace      | enterprise |      3 | 866.23", "c2 | Grace Hopper      |    pro     |      2 | 115.50", "c3 | Alan Turing       |    free    |      1 |   0.00", "c4 | Katherine Johnson |    pro     |      2 | 455.49", "c5 | Edsger Dijkstra   |    free    |      0 |   0.00", "c6 | Margaret Hamilton | enterprise |      3 | 754.00", "----+-------------------+------------+--------+--------", "TOTAL                                        | 2,191.22"]
customers = await tools.list_customers()
rows = []
for c in customers:
    orders = await tools.list_orders(customer_id=c["id"])
    statuses = {}
    for o in orders:
        statuses[o["status"]] = statuses.get(o["status"], 0) + 1
    rows.append({
        "id": c["id"],
        "name": c["name"],
        "tier": c["tier"],
        "orders": len(orders),
        "spent": round(sum(o["total"] for o in orders if o["status"] != "cancelled"), 2),
        "statuses": statuses,
        "address": {"city": c["address"]["city"], "country": c["address"]["country"]},
    })

headers = ["ID", "Name", "Tier", "Orders", "Spent"]
cells = [[r["id"], r["name"], r["tier"], str(r["orders"]), f"{r['spent']:,.2f}"] for r in rows]
widths = [max(len(h), *(len(row[i]) for row in cells)) for i, h in enumerate(headers)]
align = ["<", "<", "^", ">", ">"]
sep = "+".join("-" * (w + 2) for w in widths)
print(" | ".join(f"{h:{a}{w}}" for h, a, w in zip(headers, align, widths)))
print(sep)
for row in cells:
    print(" | ".join(f"{v:{a}{w}}" for v, a, w in zip(row, align, widths)))
print(sep)
total = sum(r["spent"] for r in rows)
print(f"{'TOTAL':<{sum(widths[:4]) + 9}} | {total:>{widths[4]},.2f}")

by_country: dict[str, dict] = {}
for r in rows:
    entry = by_country.setdefault(r["address"]["country"], {"customers": [], "spent": 0.0, "tiers": {}})
    entry["customers"].append(r["id"])
    entry["spent"] = round(entry["spent"] + r["spent"], 2)
    entry["tiers"][r["tier"]] = entry["tiers"].get(r["tier"], 0) + 1
return {"by_country": by_country, "top": max(rows, key=lambda r: r["spent"]), "total": round(total, 2)}
