# description: Convert order totals with a memoised rate lookup
# value: {"converted": {"o-1001": {"USD": 127.71, "GBP": 100.51}, "o-1004": {"USD": 48.6, "GBP": 38.25}, "o-1007": {"USD": 386.63, "GBP": 304.29}}, "rate_lookups": 2}
def make_converter():
    rates = {}
    calls = 0

    async def convert(amount, currency):
        nonlocal calls
        if currency not in rates:
            calls += 1
            rates[currency] = await tools.get_exchange_rate(base="EUR", quote=currency)
        return round(amount * rates[currency], 2)

    def lookups():
        return calls

    return convert, lookups


convert, lookups = make_converter()
order_ids = ["o-1001", "o-1004", "o-1007"]
converted = {}
for oid in order_ids:
    order = await tools.get_order(order_id=oid)
    converted[oid] = {
        "USD": await convert(order["total"], "USD"),
        "GBP": await convert(order["total"], "GBP"),
    }

return {"converted": converted, "rate_lookups": lookups()}
