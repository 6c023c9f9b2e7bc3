# description: Convert an invoice into several currencies, skipping unsupported ones
# value: {"converted": {"USD": 270.0, "JPY": 42375.0, "CHF": 240.0}, "skipped": ["SEK"]}
amount = 250.0
out = {}
skipped = []
for quote in ["USD", "SEK", "JPY", "CHF"]:
    try:
        rate = await tools.get_exchange_rate(base="EUR", quote=quote)
        out[quote] = round(amount * rate, 2)
    except ToolCallError as e:
        if e.type == "ValueError":
            skipped.append(quote)
        else:
            raise
return {"converted": out, "skipped": skipped}
