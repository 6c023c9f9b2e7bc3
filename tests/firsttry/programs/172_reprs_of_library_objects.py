# description: Debug-print library objects to check what they look like
# value: ["Decimal('118.25')", "datetime.date(2024, 5, 2)", "datetime.datetime(2024, 6, 15, 9, 30, tzinfo=datetime.timezone.utc)", "datetime.timedelta(days=3, seconds=5)", "Fraction(3, 4)", "Counter({'KB-01': 1, 'CB-05': 1})", "OrderedDict([('a', 1)])", "deque([1, 2], maxlen=3)", "Point(x=1, y=2)", "UUID('00000000-0000-0000-0000-000000000000')", "re.compile('\\\\d+', re.IGNORECASE)", "<re.Match object; span=(0, 6), match='o-1001'>", "defaultdict(<class 'int'>, {'k': 1})", "{1, 2}", "frozenset({'a'})", "b'bytes'", "range(0, 3)", "slice(1, 2, None)", "(1+2j)", "None", "Ellipsis", "2024-05-02", "  2024-05-02", "'\\xe9'"]
# logs: ["118.25", "2024-05-02", "2024-06-15 09:30:00+00:00"]
import re
import uuid
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction

order = await tools.get_order(order_id="o-1001")
Point = namedtuple("Point", "x y")
created = date.fromisoformat(order["created"])
m = re.search(r"o-(\d+)", order["id"])
objs = [
    Decimal(str(order["total"])),
    created,
    datetime(2024, 6, 15, 9, 30, tzinfo=timezone.utc),
    timedelta(days=3, seconds=5),
    Fraction(3, 4),
    Counter(l["sku"] for l in order["lines"]),
    OrderedDict(a=1),
    deque([1, 2], maxlen=3),
    Point(1, 2),
    uuid.UUID(int=0),
    re.compile(r"\d+", re.I),
    m,
    defaultdict(int, {"k": 1}),
    {1, 2},
    frozenset({"a"}),
    b"bytes",
    range(3),
    slice(1, 2),
    1 + 2j,
    None,
    ...,
]
for o in objs[:3]:
    print(o)
return [repr(o) for o in objs] + [str(created), f"{created!s:>12}", ascii("é")]
