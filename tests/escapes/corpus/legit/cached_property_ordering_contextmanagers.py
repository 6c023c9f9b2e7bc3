# value: [6, 6, 1, true, true, "[Money(1), Money(3), Money(5)]", 7, ["enter a", "A", "exit a", "enter b", "exit b", "caught", "open db", "db", "close db", "enter x", "enter y", "exit y", "exit x"]]
import contextlib
import functools
class Report:
    def __init__(self, rows):
        self.rows = rows
        self.computed = 0
    @functools.cached_property
    def total(self):
        self.computed += 1
        return sum(self.rows)
@functools.total_ordering
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __eq__(self, other):
        return self.cents == other.cents
    def __lt__(self, other):
        return self.cents < other.cents
    def __repr__(self):
        return f"Money({self.cents})"
log = []
@contextlib.contextmanager
def section(name):
    log.append(f"enter {name}")
    try:
        yield name.upper()
    finally:
        log.append(f"exit {name}")
@contextlib.asynccontextmanager
async def resource(name):
    log.append(f"open {name}")
    yield name
    log.append(f"close {name}")
report = Report([1, 2, 3])
first = report.total
second = report.total
with section("a") as title:
    log.append(title)
try:
    with section("b"):
        raise KeyError("boom")
except KeyError:
    log.append("caught")
async with resource("db") as handle:
    log.append(handle)
with contextlib.ExitStack() as stack:
    for name in ["x", "y"]:
        stack.enter_context(section(name))
with contextlib.suppress(ZeroDivisionError):
    1 / 0
return [
    first, second, report.computed, Money(3) >= Money(2), Money(1) <= Money(1),
    repr(sorted([Money(5), Money(1), Money(3)])), max(Money(2), Money(7)).cents, log,
]
