# description: Convert an order total into several currencies
# value: {"EUR": 357.99, "converted": {"USD": 386.63, "GBP": 304.29, "JPY": 60679.31}, "unsupported": ["AUD"]}
import asyncio

order = await tools.get_order(order_id="o-1007")
currencies = ["USD", "GBP", "JPY", "AUD"]

results = await asyncio.gather(
    *[tools.get_exchange_rate(base=order["currency"], quote=c) for c in currencies],
    return_exceptions=True,
)

converted = {}
unsupported = []
for currency, rate in zip(currencies, results):
    if isinstance(rate, Exception):
        unsupported.append(currency)
        continue
    converted[currency] = round(order["total"] * rate, 2)

return {"EUR": order["total"], "converted": converted, "unsupported": unsupported}
