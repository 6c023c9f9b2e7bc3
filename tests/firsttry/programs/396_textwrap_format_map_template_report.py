# description: Compose customer letters with string.Template, format_map with defaults, textwrap and f-string specs
# value: {"letters": ["Dear Ada Lovelace, your enterprise plan\n  includes 3 orders totalling $866.23.\n  Regards, ${team}", "Dear Grace Hopper, your pro plan\n  includes 2 orders totalling $115.50.\n  Regards, ${team}", "Dear Alan Turing, your free plan\n  includes 1 orders totalling $89.00.\n  Regards, ${team}", "Dear Katherine Johnson, your pro plan\n  includes 2 orders totalling $455.49.\n  Regards, ${team}"], "subjects": ["[ enterprise ] Ada Lovelace (London) - <missing>", "[    pro     ] Grace Hopper (Arlington) - <missing>", "[    free    ] Alan Turing (Manchester) - <missing>", "[    pro     ] Katherine Johnson (Hampton) - <missing>"], "short": "Enterprise customers get a [...]", "boxed": "> line one\n> line two", "caps": "Hello Wide World", "identifiers": ["name", "tier", "orders", "total"], "valid": true, "ascii": "ABCDE012"}
# logs: ["  c1|Ada Lovelace      |    866.23|003|86.6%", "  c2|Grace Hopper      |    115.50|002|11.6%", "  c3|Alan Turing       |     89.00|001|8.9%", "  c4|Katherine Johnson |    455.49|002|45.5%"]
import textwrap
from string import Template
import string


class Defaults(dict):
    def __missing__(self, key):
        return f"<{key}>"


LETTER = Template(textwrap.dedent("""\
    Dear $name,
    your $tier plan includes ${orders} orders totalling $$${total}.
    Regards, $${team}"""))
SUBJECT = "[{tier:^12}] {name} ({city}) - {missing}"

customers = await tools.list_customers()
letters = []
subjects = []
widths = []
for c in customers[:4]:
    orders = await tools.list_orders(customer_id=c["id"])
    total = sum(o["total"] for o in orders)
    body = LETTER.safe_substitute(name=c["name"], tier=c["tier"], orders=len(orders), total=f"{total:,.2f}")
    letters.append(textwrap.fill(body.replace("\n", " "), width=40, subsequent_indent="  "))
    subjects.append(SUBJECT.format_map(Defaults(name=c["name"], tier=c["tier"], city=c["address"]["city"])))
    widths.append(f"{c['id']:>4}|{c['name']:<18.18}|{total:>10,.2f}|{len(orders):03d}|{total / 1000:.1%}")

short = textwrap.shorten("Enterprise customers get a dedicated support line and a named manager.", width=40, placeholder=" [...]")
boxed = textwrap.indent("line one\nline two", "> ")
caps = string.capwords("hello wide   world")
ident = LETTER.get_identifiers() if hasattr(LETTER, "get_identifiers") else None
for w in widths:
    print(w)
return {
    "letters": letters,
    "subjects": subjects,
    "short": short,
    "boxed": boxed,
    "caps": caps,
    "identifiers": ident,
    "valid": LETTER.is_valid() if hasattr(LETTER, "is_valid") else None,
    "ascii": string.ascii_uppercase[:5] + string.digits[:3],
}
