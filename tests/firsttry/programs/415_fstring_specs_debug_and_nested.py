# description: Report exchange rates with f-string format specs: nested widths, thousands separators, sign, percent, !r and = debug
# value: {"debug": "usd=1.08", "debug_spec": "usd=1.08", "repr": "   'EUR'", "hex": "0x00ff|11111111|007|-3", "underscore": "1_234_567.9", "center": "[****mid****]", "date": "15 Jun 2024 09:30", "nested": "n=3 {literal}", "percent": "12% 0.667 1e-07 1e+21", "thousand": "10,000,000 10_000_000", "conv": "x'y'"}
# logs: ["USD  |    1.0800|      1,333,333.32|+8.0%|1.333333e+06", "GBP  |    0.8500|      1,049,382.71|-15.0%|1.049383e+06", "JPY  |  169.5000|    209,259,257.52|+16850.0%|2.092593e+08", "CHF  |    0.9600|      1,185,185.18|-4.0%|1.185185e+06"]
from datetime import datetime

base = "EUR"
quotes = ["USD", "GBP", "JPY", "CHF"]
rates = {q: await tools.get_exchange_rate(base=base, quote=q) for q in quotes}
width = max(map(len, quotes)) + 2
amount = 1234567.891
lines = []
for q, r in rates.items():
    converted = amount * r
    lines.append(f"{q:<{width}}|{r:>10.4f}|{converted:>18,.2f}|{(r - 1):+.1%}|{converted:e}")
when = datetime.fromisoformat(await tools.current_time())
usd = rates["USD"]
for line in lines:
    print(line)
return {
    "debug": f"{usd=}",
    "debug_spec": f"{usd=:.2f}",
    "repr": f"{base!r:>8}",
    "hex": f"{255:#06x}|{255:b}|{7:03}|{-3:+}",
    "underscore": f"{amount:_.1f}",
    "center": f"[{'mid':*^11}]",
    "date": f"{when:%d %b %Y %H:%M}",
    "nested": f"{'%s=%d' % ('n', 3)} {{literal}}",
    "percent": f"{0.125:.0%} {2/3:.3g} {1e-7:g} {1e21:g}",
    "thousand": f"{10**7:,} {10**7:_}",
    "conv": f"{'x'!s}{'y'!a}",
}
