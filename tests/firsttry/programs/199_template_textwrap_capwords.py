# description: Render customer notification emails with string.Template and textwrap
# value: {"partial_has_placeholder": true, "missing": "'order_id'", "headline": "Your Order Has Shipped", "short": "The quick brown fox [...]", "indented": "> a\n> \n> b", "lines": ["* one two", "  three", "  four", "  five six", "  seven"], "dotted": "Hi Ada, see x", "ids": ["first", "order_id", "items", "plural", "status", "total"], "letters": "ABCDE012"}
# logs: ["Hello Margaret,", "Your order o-1009 (3 items) is now", "shipped. The total was \u20ac447.00.", "Questions? Reply to this email or visit", "$HELP."]
import string
import textwrap

BODY = string.Template(textwrap.dedent("""\
    Hello $first,

    Your order ${order_id} ($items item${plural}) is now $status. The total was €$total.
    Questions? Reply to this email or visit $$HELP.
"""))


class Dotted(string.Template):
    delimiter = "%"
    idpattern = r"[a-z][a-z0-9_.]*"


rendered = {}
for oid in ("o-1002", "o-1009", "o-1001"):
    o = await tools.get_order(order_id=oid)
    c = await tools.get_customer(customer_id=o["customer_id"])
    items = sum(l["quantity"] for l in o["lines"])
    body = BODY.substitute(first=c["name"].split()[0], order_id=o["id"], items=items, plural="s" if items != 1 else "",
                           status=o["status"], total=f"{o['total']:.2f}")
    wrapped = "\n".join(textwrap.fill(p, width=40) for p in body.split("\n\n"))
    rendered[oid] = wrapped

partial = BODY.safe_substitute(first="Ada")
try:
    BODY.substitute(first="Ada")
    missing = None
except KeyError as e:
    missing = str(e)
headline = string.capwords("your ORDER has   shipped")
short = textwrap.shorten("The quick brown fox jumps over the lazy dog", width=25, placeholder=" [...]")
indented = textwrap.indent("a\n\nb", "> ", predicate=lambda line: True)
lines = textwrap.wrap("one two three four five six seven", width=10, initial_indent="* ", subsequent_indent="  ")
print(rendered["o-1009"])
return {
    "partial_has_placeholder": "${order_id}" in partial,
    "missing": missing,
    "headline": headline,
    "short": short,
    "indented": indented,
    "lines": lines,
    "dotted": Dotted("Hi %user.name, see %link").substitute({"user.name": "Ada", "link": "x"}),
    "ids": BODY.get_identifiers(),
    "letters": string.ascii_uppercase[:5] + string.digits[:3],
}
