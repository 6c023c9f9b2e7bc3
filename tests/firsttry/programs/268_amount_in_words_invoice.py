# description: Write order totals in words for printed invoices
# value: {"invoices": {"o-1001": "One hundred and eighteen euros and twenty-five cents", "o-1002": "Five hundred and fifty-nine euros and ninety-eight cents", "o-1003": "One hundred and eighty-eight euros", "o-1007": "Three hundred and fifty-seven euros and ninety-nine cents", "o-1008": "Ninety-seven euros and fifty cents", "o-1009": "Four hundred and forty-seven euros", "o-1010": "Two hundred and sixty-eight euros", "o-1011": "Thirty-nine euros"}, "extras": {"0": "zero", "13": "thirteen", "40": "forty", "99": "ninety-nine", "101": "one hundred and one", "1000": "one thousand", "2024": "two thousand and twenty-four", "1000001": "one million and one"}}
# logs: ["o-1001     118.25  One hundred and eighteen euros and twenty-five cents", "o-1002     559.98  Five hundred and fifty-nine euros and ninety-eight cents", "o-1003     188.00  One hundred and eighty-eight euros", "o-1007     357.99  Three hundred and fifty-seven euros and ninety-nine cents", "o-1008      97.50  Ninety-seven euros and fifty cents", "o-1009     447.00  Four hundred and forty-seven euros", "o-1010     268.00  Two hundred and sixty-eight euros", "o-1011      39.00  Thirty-nine euros"]
from decimal import Decimal, ROUND_HALF_UP

ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
SCALES = [(10**6, "million"), (1000, "thousand"), (100, "hundred")]

def words(n: int) -> str:
    if n < 20:
        return ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return TENS[tens] + (f"-{ONES[ones]}" if ones else "")
    for size, name in SCALES:
        if n >= size:
            head, rest = divmod(n, size)
            tail = "" if rest == 0 else (" and " if rest < 100 else " ") + words(rest)
            return f"{words(head)} {name}{tail}"
    raise AssertionError(n)

def amount_in_words(amount: Decimal, currency: str = "euro") -> str:
    amount = amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    whole = int(amount)
    cents = int((amount - whole) * 100)
    text = f"{words(whole)} {currency}{'s' if whole != 1 else ''}"
    if cents:
        text += f" and {words(cents)} cent{'s' if cents != 1 else ''}"
    return text[0].upper() + text[1:]

invoices = {}
for cid in ("c1", "c4", "c6"):
    for o in await tools.list_orders(customer_id=cid):
        total = Decimal(str(o["total"]))
        invoices[o["id"]] = amount_in_words(total)
        print(f"{o['id']}  {total:>9,.2f}  {invoices[o['id']]}")
extras = {str(n): words(n) for n in (0, 13, 40, 99, 101, 1000, 2024, 1_000_001)}
return {"invoices": invoices, "extras": extras}
