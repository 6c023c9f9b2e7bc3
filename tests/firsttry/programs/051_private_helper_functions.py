# description: Format an account statement for Grace Hopper
# value: {"customer": "Grace Hopper", "statement": ["✓ o-1004 €45.00", "… o-1005 €70.50"]}
# logs: ["✓ o-1004 €45.00", "… o-1005 €70.50"]
_CURRENCY_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}


def _fmt_money(amount, currency="EUR"):
    return f"{_CURRENCY_SYMBOLS.get(currency, currency)}{amount:,.2f}"


def _status_icon(status):
    return {"delivered": "✓", "shipped": "→", "pending": "…"}.get(status, "×")


customer = await tools.get_customer(customer_id="c2")
orders = await tools.list_orders(customer_id="c2")

statement = []
for o in orders:
    _tmp = _fmt_money(o["total"], o["currency"])
    statement.append(f"{_status_icon(o['status'])} {o['id']} {_tmp}")

print("\n".join(statement))
return {"customer": customer["name"], "statement": statement}
