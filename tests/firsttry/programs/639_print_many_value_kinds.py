# description: Debug-print many kinds of values while building a customer overview
# value: {"ok": true}
# logs: ["['beta'] ('beta',) ('c2',) None True (3+4j)", "Brief(id='c2', tier=<Tier.PRO: 'pro'>, orders=2)", "Pair(id='c2', name='Grace Hopper') Tier.PRO [<Tier.FREE: 'free'>]", "Counter({'delivered': 1, 'pending': 1}) deque([1, 2], maxlen=3)", "defaultdict(<class 'list'>, {'x': [1]}) OrderedDict([('a', 1)]) ChainMap({'a': 1}, {'b': 2})", "1.10 [Decimal('2.5')] 1/3 [Fraction(1, 2)]", "2024-06-01 [datetime.date(2024, 6, 1)] 2024-06-01 12:00:00+00:00", "1 day, 2:00:00 [datetime.timedelta(seconds=90)]", "b'abc' bytearray(b'x') range(0, 3) frozenset() set() {} []  ''", "1.0 1e+16 0.30000000000000004 18446744073709551616 -0.0 inf 2.67", "a | b <", "('sku', 'LP-14')", "('name', 'Laptop stand')", "('quantity', 1)", "('unit_price', 45.0)", "[{'sku': 'LP-14', 'name': 'Laptop stand', 'quantity': 1, 'unit_price': 45.0}]", "", "<built-in function len> <class 'dict'> <class 'type'> <class '__main__.Brief'> <class 'NoneType'>"]
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple, ChainMap
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from enum import Enum
from fractions import Fraction

class Tier(Enum):
    FREE = "free"
    PRO = "pro"

@dataclass
class Brief:
    id: str
    tier: Tier
    orders: int = 0

Pair = namedtuple("Pair", "id name")
c = await tools.get_customer(customer_id="c2")
orders = await tools.list_orders(customer_id="c2")
print(c["tags"], tuple(c["tags"]), (c["id"],), None, True, 3 + 4j)
print(Brief(c["id"], Tier(c["tier"]), len(orders)))
print(Pair(c["id"], c["name"]), Tier.PRO, [Tier.FREE])
print(Counter(o["status"] for o in orders), deque([1, 2], maxlen=3))
dd = defaultdict(list)
dd["x"].append(1)
print(dd, OrderedDict(a=1), ChainMap({"a": 1}, {"b": 2}))
print(Decimal("1.10"), [Decimal("2.5")], Fraction(1, 3), [Fraction(2, 4)])
print(date(2024, 6, 1), [date(2024, 6, 1)], datetime(2024, 6, 1, 12, 0, tzinfo=timezone.utc))
print(timedelta(days=1, hours=2), [timedelta(seconds=90)])
print(b"abc", bytearray(b"x"), range(3), frozenset(), set(), {}, [], "", repr(""))
print(1.0, 1e16, 0.1 + 0.2, 2**64, -0.0, float("inf"), round(2.675, 2))
print("a", "b", sep=" | ", end=" <\n")
print(*orders[0]["lines"][0].items(), sep="\n")
print(f"{orders[0]['lines']}")
print()
print(len, type(c), type(Brief), Brief, type(None))
return {"ok": True}
