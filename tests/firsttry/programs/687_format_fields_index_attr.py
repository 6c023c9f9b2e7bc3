# description: str.format with item and attribute fields on a customer and a namespace
# value: ["Grace Hopper <grace@example.com> lives in Arlington", "Grace Hopper (Arlington)", "            ['beta']|"]
from types import SimpleNamespace

c = await tools.get_customer(customer_id="c2")
ns = SimpleNamespace(name=c["name"], city=c["address"]["city"])
line1 = "{0[name]} <{0[email]}> lives in {0[address][city]}".format(c)
line2 = "{n.name} ({n.city})".format(n=ns)
line3 = "{c[tags]!r:>20}|".format(c=c)
return [line1, line2, line3]
