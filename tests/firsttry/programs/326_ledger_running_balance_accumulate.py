# description: Turn purchase and refund events into a signed ledger with running balances per day
# value: {"final": "740.92", "peak": "740.92", "peak_at": 47, "daily": {"2024-06-10": {"net": "+274.99", "n": 3, "largest": "+185.99"}, "2024-06-11": {"net": "+267.97", "n": 5, "largest": "+170.99"}, "2024-06-12": {"net": "-89.00", "n": 4, "largest": "-199.99"}, "2024-06-13": {"net": "+117.98", "n": 4, "largest": "+147.99"}, "2024-06-14": {"net": "+168.98", "n": 4, "largest": "+139.99"}}, "refunds": 6, "max_run": "185.99"}
# logs: [" id day           amount    balance", "  3 2024-06-10   +111.99     111.99", "  5 2024-06-10   +185.99     297.98", "  6 2024-06-10    -22.99     274.99", " 10 2024-06-11   +170.99     445.98", " 12 2024-06-11    +44.99     490.97", " 13 2024-06-11    -81.99     408.98"]
from decimal import Decimal
from itertools import accumulate, groupby

items = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    items.extend(e for e in page["items"] if e["kind"] in ("purchase", "refund"))
    cursor = page["next_cursor"]
    if not cursor:
        break

amounts = [Decimal(str(e["amount"])) * (1 if e["kind"] == "purchase" else -1) for e in items]
balances = list(accumulate(amounts, initial=Decimal("0.00")))[1:]
peak = max(balances)

print(f"{'id':>3} {'day':<10} {'amount':>9} {'balance':>10}")
for e, amt, bal in list(zip(items, amounts, balances))[:6]:
    print(f"{e['id']:>3} {e['at'][:10]:<10} {amt:>+9,.2f} {bal:>10,.2f}")

daily = {}
for day, group in groupby(zip(items, amounts), key=lambda p: p[0]["at"][:10]):
    vals = [a for _, a in group]
    daily[day] = {"net": f"{sum(vals):+.2f}", "n": len(vals), "largest": f"{max(vals, key=abs):+.2f}"}
return {"final": f"{balances[-1]:,.2f}", "peak": f"{peak:,.2f}", "peak_at": items[balances.index(peak)]["id"],
        "daily": daily, "refunds": sum(1 for a in amounts if a < 0), "max_run": str(max(accumulate(amounts, max)))}
