# description: Render order-update messages from a mustache-like template and send them
# value: [{"to": "ada@example.com", "lines": ["Hi Ada Lovelace,", "- o-1002: shipped (559.98 EUR)", "- o-1003: pending (188.0 EUR)", "Ship to: London, UK"]}, {"to": "alan@example.com", "lines": ["Hi Alan Turing,", "Ship to: Manchester, UKYou have no open orders."]}, {"to": "edsger@example.com", "lines": ["Hi Edsger Dijkstra,", "Ship to: Eindhoven, NLYou have no open orders."]}]
# logs: ["--- ntf-1 to ada@example.com", "Hi Ada Lovelace,", "- o-1002: shipped (559.98 EUR)", "- o-1003: pending (188.0 EUR)", "Ship to: London, UK", "--- ntf-2 to alan@example.com", "Hi Alan Turing,", "Ship to: Manchester, UKYou have no open orders.", "--- ntf-3 to edsger@example.com", "Hi Edsger Dijkstra,", "Ship to: Eindhoven, NLYou have no open orders."]
import operator
import re
from functools import reduce

TEMPLATE = """Hi {{customer.name}},
{{#orders}}- {{id}}: {{status}} ({{total}} {{currency}})
{{/orders}}Ship to: {{customer.address.city}}, {{customer.address.country}}{{^orders}}You have no open orders.{{/orders}}"""

SECTION = re.compile(r"\{\{([#^])(\w+)\}\}(.*?)\{\{/\2\}\}", re.S)
VAR = re.compile(r"\{\{\s*([\w.]+)\s*\}\}")

def resolve(ctx: dict, path: str) -> object:
    try:
        return reduce(operator.getitem, path.split("."), ctx)
    except (KeyError, TypeError):
        return ""

def render(template: str, ctx: dict) -> str:
    def section(m: re.Match) -> str:
        kind, name, body = m.groups()
        value = ctx.get(name)
        if kind == "^":
            return "" if value else render(body, ctx)
        if isinstance(value, list):
            return "".join(render(body, {**ctx, **item}) for item in value)
        return render(body, ctx) if value else ""
    text = SECTION.sub(section, template)
    return VAR.sub(lambda m: str(resolve(ctx, m.group(1))), text)

sent = []
for cid in ("c1", "c3", "c5"):
    customer = await tools.get_customer(customer_id=cid)
    orders = [o for o in await tools.list_orders(customer_id=cid) if o["status"] in ("pending", "shipped")]
    message = render(TEMPLATE, {"customer": customer, "orders": orders})
    receipt = await tools.send_notification(to=customer["email"], message=message)
    sent.append({"to": receipt["to"], "lines": message.splitlines()})
    print(f"--- {receipt['id']} to {receipt['to']}\n{message}")
return sent
