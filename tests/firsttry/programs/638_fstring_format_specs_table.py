# description: Print a price table with f-string alignment, thousands separators, percents and nested widths
# value: {"total": "7,209.94", "share": "23.30%", "center": "[**x**]", "sign": " 42"}
# logs: ["name                     |      EUR |        JPY |  stock ", "-------------------------+----------+------------+--------", "27-inch monitor          |   279.99 |     47,458 |    6   ", "Noise-cancelling headset |   149.00 |     25,256 |    9   ", "Mechanical keyboard      |    89.00 |     15,086 |   14   ", "Laptop stand             |    45.00 |      7,628 |    3   ", "total=7,209.94 23.3% 007 0x7 111 11111111 -3.5 1_234_567", "15/06/2024   'ok' 3.142 1e-07 1.234568e+04 50.000000%"]
from datetime import date

products = await tools.list_products()
rate = await tools.get_exchange_rate(base="EUR", quote="JPY")
width = max(len(p["name"]) for p in products)
print(f"{'name':<{width}} | {'EUR':>8} | {'JPY':>10} | {'stock':^7}")
print(f"{'':-<{width}}-+-{'':->8}-+-{'':->10}-+-{'':-^7}")
for p in sorted(products, key=lambda p: (-p["price"], p["sku"]))[:4]:
    print(f"{p['name']:<{width}} | {p['price']:>8.2f} | {p['price'] * rate:>10,.0f} | {p['in_stock']:^7d}")
total = sum(p["price"] * p["in_stock"] for p in products)
share = products[2]["price"] * products[2]["in_stock"] / total
n = len(products)
print(f"{total=:,.2f} {share:.1%} {n:03d} {n:#x} {n:b} {255:08b} {-3.5:+.1f} {1234567:_}")
print(f"{date(2024, 6, 15):%d/%m/%Y} {'ok'!r:>6} {3.14159:{'.3f'}} {1e-7:g} {12345.678:e} {0.5:%}")
return {"total": f"{total:,.2f}", "share": f"{share:.2%}", "center": f"[{'x':*^5}]", "sign": f"{42: d}"}
