# description: Scan customers with walrus filters and print a compact summary using print sep and end
# value: {"names": [["c1", 2], ["c2", 1], ["c4", 1], ["c6", 1]], "with_orders": ["c1", "c2", "c3", "c4", "c6"], "biggest": [["c1", 559.98], ["c4", 357.99], ["c6", 447.0]], "i": 2, "n": 1}
# logs: ["customers: 6", "c1, c2, c4, c6 <- tagged", "c1=559.98; c4=357.99; c6=447.00; ", "abc", "xy", "0-1-2", "multi", "line", "", "row 0", "row 1", "top=8"]
customers = await tools.list_customers()
names = []
for c in customers:
    if (n := len(c["tags"])) >= 1:
        names.append((c["id"], n))

orders_by = {c["id"]: orders for c in customers if (orders := await tools.list_orders(customer_id=c["id"]))}
biggest = [(cid, t) for cid, os in orders_by.items() if (t := max(o["total"] for o in os)) > 200]
print("customers", len(customers), sep=": ")
print(*[cid for cid, _ in names], sep=", ", end=" <- tagged\n")
for cid, t in biggest:
    print(cid, end="=")
    print(f"{t:.2f}", end="; ")
print()
print("a", "b", "c", sep="")
print("x", end="")
print("y")
print(*range(3), sep="-")
print("multi\nline")
print()
i = 0
while (line := f"row {i}") and i < 2:
    print(line)
    i += 1
data = [3, 8, 1]
if (top := max(data)) > 5:
    print(f"{top=}")
return {"names": names, "with_orders": sorted(orders_by), "biggest": biggest, "i": i, "n": n}
