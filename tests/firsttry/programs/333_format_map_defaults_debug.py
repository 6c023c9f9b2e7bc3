# description: Render per-customer status lines from a format string, filling any missing fields with defaults
# value: {"lines": ["Ada Lovelace      | ENTERPRISE |  3 orders|    866.23|London|<manager?>", "Grace Hopper      |    PRO     |  2 orders|    115.50|Arling|<manager?>", "Alan Turing       |    FREE    |  1 orders|     89.00|Manche|<manager?>", "Katherine Johnson |    PRO     |  2 orders|    455.49|Hampto|<manager?>", "Edsger Dijkstra   |    FREE    |  0 orders|      0.00|Eindho|<manager?>", "Margaret Hamilton | ENTERPRISE |  3 orders|    754.00|Boston|<manager?>"], "debug": ["n=3, spend=866.2, c['id']='c1'", "n=2, spend=115.5, c['id']='c2'"], "banner_len": 48, "specs": ["77.8%", "1_234_567.89", "0xff", "11111111", "-0003.50", "42    |", "  'x'", "3.00e-05", "1e+06"], "vformat": "a-b-a", "nested": "***mid***"}
# logs: ["====================SUMMARY=====================", "Ada Lovelace      | ENTERPRISE |  3 orders|    866.23|London|<manager?>", "Grace Hopper      |    PRO     |  2 orders|    115.50|Arling|<manager?>", "Alan Turing       |    FREE    |  1 orders|     89.00|Manche|<manager?>", "Katherine Johnson |    PRO     |  2 orders|    455.49|Hampto|<manager?>", "Edsger Dijkstra   |    FREE    |  0 orders|      0.00|Eindho|<manager?>", "Margaret Hamilton | ENTERPRISE |  3 orders|    754.00|Boston|<manager?>"]
class Defaults(dict):
    def __missing__(self, key):
        return f"<{key}?>"

TEMPLATE = "{name:<18}|{tier:^12}|{orders:>3} orders|{spend:>10,.2f}|{city!s:.6}|{manager}"

lines = []
debug = []
for c in await tools.list_customers():
    orders = await tools.list_orders(customer_id=c["id"])
    spend = sum(o["total"] for o in orders)
    fields = Defaults(name=c["name"], tier=c["tier"].upper(), orders=len(orders), spend=spend, city=c["address"]["city"])
    lines.append(TEMPLATE.format_map(fields))
    n = len(orders)
    debug.append(f"{n=}, {spend=:.1f}, {c['id']=}")

w = 12
banner = f"{'SUMMARY':=^{w * 4}}"
pct = 7 / 9
specs = [f"{pct:.1%}", f"{1234567.891:_.2f}", f"{255:#x}", f"{255:08b}", f"{-3.5:+08.2f}", f"{42:<6}|", f"{'x'!r:>5}", f"{3e-5:.2e}", f"{1e6:g}"]
print(banner)
for l in lines:
    print(l)
return {"lines": lines, "debug": debug[:2], "banner_len": len(banner), "specs": specs,
        "vformat": "{0}-{1}-{0}".format("a", "b"), "nested": "{:{fill}{align}{width}}".format("mid", fill="*", align="^", width=9)}
