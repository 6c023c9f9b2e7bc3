# description: Print an invoice for a customer's orders using format specs, str.format and printf-style formatting
# value: ["          INVOICE for Ada Lovelace          ", "order      status        items        total", "o-1001     delivere          4       118.25", "o-1002     shipped           2       559.98", "o-1003     pending           2       188.00", "--------------------------------------------", "grand total                           866.23", "Ada Lovelace <ada@example.com>", "London, UK", "c1 signed up 2021-03-14", "|     866.230|8.7e+02     |", "Saturday 15 June 2024, 09:30 UTC", "1_234_567 1,234,567 0xff 11111111 007 -3 +3", "45.7% 50.000000% 12 1e-07 1.23e+08", "  'enterprise'|  ok  |'\\xe9'", "      866.232a***pad***", " 37.2% of budget", "ff 10 1.234568e+04 'q' A"]
# logs: ["          INVOICE for Ada Lovelace          ", "order      status        items        total", "o-1001     delivere          4       118.25", "o-1002     shipped           2       559.98", "o-1003     pending           2       188.00", "--------------------------------------------", "grand total                           866.23", "Ada Lovelace <ada@example.com>", "London, UK", "c1 signed up 2021-03-14", "|     866.230|8.7e+02     |", "Saturday 15 June 2024, 09:30 UTC", "1_234_567 1,234,567 0xff 11111111 007 -3 +3", "45.7% 50.000000% 12 1e-07 1.23e+08", "  'enterprise'|  ok  |'\\xe9'", "      866.232a***pad***", " 37.2% of budget", "ff 10 1.234568e+04 'q' A"]
from datetime import datetime

customer = await tools.get_customer(customer_id="c1")
orders = await tools.list_orders(customer_id="c1")
now = datetime.fromisoformat(await tools.current_time())

lines = []
lines.append("{:^44}".format(f"INVOICE for {customer['name']}"))
lines.append("%-10s %-8s %10s %12s" % ("order", "status", "items", "total"))
grand = 0.0
for o in orders:
    items = sum(l["quantity"] for l in o["lines"])
    grand += o["total"]
    lines.append("%-10s %-8.8s %10d %12s" % (o["id"], o["status"], items, f"{o['total']:,.2f}"))
lines.append(f"{'':-<44}")
lines.append(f"{'grand total':<30}{grand:>14,.2f}")
lines.append("{name} <{email}>".format(**customer))
lines.append("{0[city]}, {0[country]}".format(customer["address"]))
lines.append("%(id)s signed up %(signup_date)s" % customer)
width, prec = 12, 3
lines.append(f"|{grand:{width}.{prec}f}|{grand:<{width}.1e}|")
lines.append(f"{now:%A %d %B %Y, %H:%M} UTC")
lines.append(f"{1234567:_} {1234567:,} {255:#x} {255:08b} {7:03d} {-3:+d} {3:+d}")
lines.append(f"{0.4567:.1%} {0.5:%} {12.0:g} {1e-7:g} {123456789.0:.3g}")
lines.append(f"{customer['tier']!r:>14}|{'ok'!s:^6}|{'é'!a}")
lines.append(format(grand, ">12,.2f") + format(42, "x") + format("pad", "*^9"))
lines.append("%5.1f%% of %s" % (37.25, "budget"))
lines.append("%x %o %e %r %c" % (255, 8, 12345.678, "q", 65))

for line in lines:
    print(line)
return lines
