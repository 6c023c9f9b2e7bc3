"""The tools a realistic support-and-operations agent has, for the first-try programs.

Weather, customers, orders, products, notifications, tickets, a document search,
exchange rates, an audit event log read a page at a time through a cursor, a flaky
warehouse service and raw application logs, each defined with ``@tool`` the way a
tool author writes them: TypedDicts, dataclasses (with a nested ``Address``) and
msgspec Structs as outputs, ``Literal`` parameters, defaults, and tools that raise
``LookupError``, ``ValueError`` or ``TimeoutError`` for some inputs. Shipments and
price changes take a nested object and lists of objects as arguments (a TypedDict
with a ``NotRequired`` key among them), the order search an optional filter object
and a cursor, the escalation an ``IntEnum`` (``Literal[1, 2, 3, 4]`` in the SDK), the
bulk stock lookup returns a dict keyed by SKU, the event export a large text, and a raw
tool takes parameters named ``from`` and ``to`` (the SDK's one-dict form). A refund tool raises its
own ``RefundDenied`` (documented past the docstring's first paragraph), and the support
rota takes a ``StrEnum`` team and leaves its page token out on the last page. The data is
fixed and nothing reads the clock or the network, so every program's result is the
same on every run.

The flaky ``warehouse_stock`` fails a fixed number of times (0, 1 or 2, by SKU) for
each run before it answers, counting attempts per run: it simulates a timeout by
raising ``TimeoutError`` at once, never by waiting, so programs that retry it cost
no wall time and their results never depend on timing.

Writes (cancelling an order, sending a notification, opening a ticket, tagging a
customer) are kept per ``run_code`` call (keyed by the root call id), so a program
sees its own writes and no program sees another's, whatever order they run in.

``codemode sdk --tools tests/firsttry/tools.py:TOOLS`` prints what the model reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any, Final, Literal, NotRequired, TypedDict

import msgspec

from codemode import ToolOutput, ToolRunContext, define_tool, tool

__all__ = ["TOOLS"]

# -- weather ------------------------------------------------------------------------

Condition = Literal["sunny", "cloudy", "rain", "snow", "windy"]


class Weather(TypedDict):
    city: str
    celsius: float
    condition: Condition
    humidity: int
    wind_kph: float


class ForecastDay(TypedDict):
    date: str
    high: float
    low: float
    condition: Condition
    rain_mm: float


_WEATHER: Final[dict[str, tuple[float, Condition, int, float]]] = {
    "London": (14.5, "rain", 82, 18.0),
    "Paris": (18.0, "cloudy", 65, 12.5),
    "Oslo": (6.5, "snow", 70, 22.0),
    "Tokyo": (24.0, "sunny", 55, 8.0),
    "Cairo": (33.5, "sunny", 20, 15.5),
    "New York": (21.0, "windy", 60, 35.0),
    "Sydney": (17.5, "cloudy", 68, 20.0),
}
_CYCLE: Final[tuple[Condition, ...]] = (
    "sunny", "cloudy", "rain", "cloudy", "sunny", "windy", "rain",
)
_FORECAST_START: Final = (2024, 6, 15)


def _city(city: str) -> tuple[float, Condition, int, float]:
    for name, row in _WEATHER.items():
        if name.casefold() == city.strip().casefold():
            return row
    raise LookupError(f"unknown city {city!r}; known cities: {', '.join(sorted(_WEATHER))}")


def _canonical_city(city: str) -> str:
    return next(n for n in _WEATHER if n.casefold() == city.strip().casefold())


@tool(concurrency_safe=True)
def get_weather(city: str) -> Weather:
    """Current weather in a city.

    Args:
        city: the city name, e.g. "London".
    """
    celsius, condition, humidity, wind = _city(city)
    return {
        "city": _canonical_city(city),
        "celsius": celsius,
        "condition": condition,
        "humidity": humidity,
        "wind_kph": wind,
    }


@tool(concurrency_safe=True)
def forecast(city: str, days: int = 3) -> list[ForecastDay]:
    """Daily forecast for the next days (1 to 7), starting today.

    Args:
        city: the city name.
        days: how many days, 1 to 7.
    """
    if not 1 <= days <= 7:
        raise ValueError(f"days must be between 1 and 7, got {days}")
    celsius, _, _, _ = _city(city)
    year, month, day = _FORECAST_START
    offset = sum(map(ord, _canonical_city(city))) % len(_CYCLE)
    out: list[ForecastDay] = []
    for i in range(days):
        condition = _CYCLE[(offset + i) % len(_CYCLE)]
        out.append(
            {
                "date": f"{year:04d}-{month:02d}-{day + i:02d}",
                "high": celsius + (i % 3) * 1.5,
                "low": celsius - 6.0 + (i % 2),
                "condition": condition,
                "rain_mm": 4.5 * ((offset + i) % 3) if condition == "rain" else 0.0,
            }
        )
    return out


# -- customers ----------------------------------------------------------------------

Tier = Literal["free", "pro", "enterprise"]


@dataclass
class Address:
    street: str
    city: str
    postcode: str
    country: str


@dataclass
class Customer:
    id: str
    name: str
    email: str
    tier: Tier
    address: Address
    signup_date: str
    tags: list[str] = field(default_factory=list)


_CUSTOMERS: Final = (
    Customer("c1", "Ada Lovelace", "ada@example.com", "enterprise",
             Address("12 St James's Square", "London", "SW1Y 4JH", "UK"), "2021-03-14",
             ["vip", "beta"]),
    Customer("c2", "Grace Hopper", "grace@example.com", "pro",
             Address("1 Navy Way", "Arlington", "22202", "US"), "2022-07-01", ["beta"]),
    Customer("c3", "Alan Turing", "alan@example.com", "free",
             Address("Oxford Road", "Manchester", "M13 9PL", "UK"), "2023-01-20"),
    Customer("c4", "Katherine Johnson", "katherine@example.com", "pro",
             Address("1 NASA Drive", "Hampton", "23666", "US"), "2020-11-05", ["vip"]),
    Customer("c5", "Edsger Dijkstra", "edsger@example.com", "free",
             Address("Den Dolech 2", "Eindhoven", "5612 AZ", "NL"), "2023-09-30"),
    Customer("c6", "Margaret Hamilton", "margaret@example.com", "enterprise",
             Address("77 Massachusetts Ave", "Boston", "02139", "US"), "2019-05-22", ["vip"]),
)


# -- per-run writes -------------------------------------------------------------------


@dataclass
class _RunState:
    cancelled: dict[str, str] = field(default_factory=dict)
    notifications: int = 0
    tickets: int = 0
    tags: dict[str, list[str]] = field(default_factory=dict)
    #: Calls of ``warehouse_stock`` so far, by SKU.
    warehouse_attempts: dict[str, int] = field(default_factory=dict)
    shipments: int = 0
    prices: dict[str, float] = field(default_factory=dict)


_RUNS: dict[str, _RunState] = {}


def _state(ctx: ToolRunContext) -> _RunState:
    return _RUNS.setdefault(ctx.root_call_id, _RunState())


def _customer(customer_id: str, ctx: ToolRunContext) -> Customer:
    for customer in _CUSTOMERS:
        if customer.id == customer_id:
            tags = _state(ctx).tags.get(customer_id, customer.tags)
            return Customer(customer.id, customer.name, customer.email, customer.tier,
                            customer.address, customer.signup_date, list(tags))
    raise LookupError(f"no customer with id {customer_id!r}")


@tool(concurrency_safe=True)
def get_customer(customer_id: str, ctx: ToolRunContext) -> Customer:
    """Look a customer up by id (e.g. "c1")."""
    return _customer(customer_id, ctx)


@tool(concurrency_safe=True)
def list_customers(ctx: ToolRunContext, tier: Tier | None = None) -> list[Customer]:
    """All customers, optionally only those of one tier, ordered by id."""
    return [_customer(c.id, ctx) for c in _CUSTOMERS if tier is None or c.tier == tier]


@tool(concurrency_safe=True)
def find_customer(email: str, ctx: ToolRunContext) -> Customer | None:
    """The customer with this email address (case-insensitive), or None."""
    for c in _CUSTOMERS:
        if c.email == email.strip().casefold():
            return _customer(c.id, ctx)
    return None


@tool
def tag_customer(customer_id: str, tags: list[str], ctx: ToolRunContext) -> Customer:
    """Add tags to a customer; returns the updated customer."""
    customer = _customer(customer_id, ctx)
    merged = list(customer.tags)
    merged.extend(t for t in tags if t not in merged)
    _state(ctx).tags[customer_id] = merged
    return _customer(customer_id, ctx)


# -- orders -------------------------------------------------------------------------

Status = Literal["pending", "shipped", "delivered", "cancelled"]


class OrderLine(TypedDict):
    sku: str
    name: str
    quantity: int
    unit_price: float


class Order(TypedDict):
    id: str
    customer_id: str
    status: Status
    created: str
    lines: list[OrderLine]
    total: float
    currency: str


class Cancellation(TypedDict):
    order_id: str
    status: Status
    refund: float
    reason: str


def _line(sku: str, quantity: int) -> OrderLine:
    product = next(p for p in _PRODUCTS if p.sku == sku)
    return {"sku": sku, "name": product.name, "quantity": quantity, "unit_price": product.price}


class Product(msgspec.Struct):
    sku: str
    name: str
    category: str
    price: float
    in_stock: int


_PRODUCTS: Final = (
    Product("KB-01", "Mechanical keyboard", "peripherals", 89.0, 14),
    Product("MS-02", "Wireless mouse", "peripherals", 25.5, 0),
    Product("MN-27", "27-inch monitor", "displays", 279.99, 6),
    Product("HD-10", "USB-C hub", "accessories", 39.0, 42),
    Product("CB-05", "Braided cable", "accessories", 9.75, 120),
    Product("LP-14", "Laptop stand", "accessories", 45.0, 3),
    Product("HS-07", "Noise-cancelling headset", "audio", 149.0, 9),
)

_ORDER_ROWS: Final[tuple[tuple[str, str, Status, str, tuple[tuple[str, int], ...]], ...]] = (
    ("o-1001", "c1", "delivered", "2024-05-02", (("KB-01", 1), ("CB-05", 3))),
    ("o-1002", "c1", "shipped", "2024-06-10", (("MN-27", 2),)),
    ("o-1003", "c1", "pending", "2024-06-14", (("HS-07", 1), ("HD-10", 1))),
    ("o-1004", "c2", "delivered", "2024-04-18", (("LP-14", 1),)),
    ("o-1005", "c2", "pending", "2024-06-13", (("MS-02", 2), ("CB-05", 2))),
    ("o-1006", "c3", "cancelled", "2024-03-30", (("KB-01", 1),)),
    ("o-1007", "c4", "delivered", "2024-02-11", (("MN-27", 1), ("HD-10", 2))),
    ("o-1008", "c4", "pending", "2024-06-12", (("CB-05", 10),)),
    ("o-1009", "c6", "shipped", "2024-06-08", (("HS-07", 3),)),
    ("o-1010", "c6", "pending", "2024-06-15", (("LP-14", 2), ("KB-01", 2))),
    ("o-1011", "c6", "delivered", "2024-01-05", (("HD-10", 1),)),
)


def _orders(ctx: ToolRunContext) -> list[Order]:
    cancelled = _state(ctx).cancelled
    out: list[Order] = []
    for order_id, customer_id, status, created, rows in _ORDER_ROWS:
        lines = [_line(sku, qty) for sku, qty in rows]
        out.append(
            {
                "id": order_id,
                "customer_id": customer_id,
                "status": "cancelled" if order_id in cancelled else status,
                "created": created,
                "lines": lines,
                "total": round(sum(li["quantity"] * li["unit_price"] for li in lines), 2),
                "currency": "EUR",
            }
        )
    return out


def _find_order(order_id: str, ctx: ToolRunContext) -> Order:
    for order in _orders(ctx):
        if order["id"] == order_id:
            return order
    raise LookupError(f"no order with id {order_id!r}")


@tool(concurrency_safe=True)
def list_orders(
    customer_id: str, ctx: ToolRunContext, status: Status | None = None
) -> list[Order]:
    """A customer's orders, oldest first, optionally only those with one status."""
    _customer(customer_id, ctx)
    return [
        o for o in _orders(ctx)
        if o["customer_id"] == customer_id and (status is None or o["status"] == status)
    ]


@tool(concurrency_safe=True)
def get_order(order_id: str, ctx: ToolRunContext) -> Order:
    """One order by id (e.g. "o-1001")."""
    return _find_order(order_id, ctx)


@tool
def cancel_order(
    order_id: str, ctx: ToolRunContext, reason: str = "customer request"
) -> Cancellation:
    """Cancel a pending order and refund it. Shipped, delivered or cancelled orders cannot be."""
    order = _find_order(order_id, ctx)
    if order["status"] != "pending":
        raise ValueError(f"order {order_id} is {order['status']} and cannot be cancelled")
    _state(ctx).cancelled[order_id] = reason
    return {"order_id": order_id, "status": "cancelled", "refund": order["total"], "reason": reason}


# -- products -----------------------------------------------------------------------


@tool(concurrency_safe=True)
def list_products(category: str | None = None) -> list[Product]:
    """The catalogue, optionally one category.

    Args:
        category: "peripherals", "displays", "accessories" or "audio".
    """
    return [p for p in _PRODUCTS if category is None or p.category == category]


@tool(concurrency_safe=True)
def get_stock(sku: str) -> int:
    """Units in stock for a product SKU."""
    for p in _PRODUCTS:
        if p.sku == sku:
            return p.in_stock
    raise LookupError(f"unknown sku {sku!r}")


_RATES: Final = {"EUR": 1.0, "USD": 1.08, "GBP": 0.85, "JPY": 169.5, "CHF": 0.96}


@tool(concurrency_safe=True)
def get_exchange_rate(base: str, quote: str) -> float:
    """How many units of `quote` one unit of `base` buys (ISO codes, e.g. "EUR", "USD")."""
    for code in (base, quote):
        if code not in _RATES:
            raise ValueError(f"unsupported currency {code!r}; supported: {', '.join(_RATES)}")
    return round(_RATES[quote] / _RATES[base], 6)


# -- notifications and tickets ---------------------------------------------------------

Channel = Literal["email", "sms", "push"]


class Receipt(TypedDict):
    id: str
    to: str
    channel: Channel
    status: Literal["queued"]


@tool
def send_notification(
    to: str, message: str, ctx: ToolRunContext, channel: Channel = "email"
) -> Receipt:
    """Send a message to a customer's email address (or phone for sms, customer id for push)."""
    if not message.strip():
        raise ValueError("message is empty")
    if channel == "email" and "@" not in to:
        raise ValueError(f"{to!r} is not an email address")
    state = _state(ctx)
    state.notifications += 1
    return {"id": f"ntf-{state.notifications}", "to": to, "channel": channel, "status": "queued"}


class Ticket(msgspec.Struct):
    id: str
    customer_id: str
    subject: str
    priority: Literal["low", "normal", "high"]
    status: Literal["open"] = "open"


@tool
def create_ticket(
    customer_id: str,
    subject: str,
    ctx: ToolRunContext,
    priority: Literal["low", "normal", "high"] = "normal",
) -> Ticket:
    """Open a support ticket for a customer."""
    _customer(customer_id, ctx)
    state = _state(ctx)
    state.tickets += 1
    return Ticket(f"T-{100 + state.tickets}", customer_id, subject, priority)


# -- search and time ------------------------------------------------------------------


class SearchHit(TypedDict):
    id: str
    title: str
    score: float
    snippet: str
    url: str


_DOCS: Final = (
    ("kb-1", "Resetting your password", "Use the 'Forgot password' link to reset a password."),
    ("kb-2", "Shipping times", "Orders ship within 2 business days; delivery takes 3-5 days."),
    ("kb-3", "Cancelling an order", "Pending orders can be cancelled and refunded in full."),
    ("kb-4", "Refund policy", "Refunds reach your card within 5-10 days of a cancellation."),
    ("kb-5", "Changing your shipping address", "Edit the address before an order ships."),
    ("kb-6", "Enterprise support", "Enterprise customers get a dedicated support line."),
    ("kb-7", "Password requirements", "A password needs 12 characters, one digit and one symbol."),
    ("kb-8", "Tracking a shipped order", "The tracking link is in the shipping email."),
)


@tool(concurrency_safe=True)
def search_docs(query: str, limit: int = 5) -> list[SearchHit]:
    """Search the help-centre articles; best matches first."""
    words = [w for w in query.casefold().split() if w]
    hits: list[SearchHit] = []
    for doc_id, title, body in _DOCS:
        text = f"{title} {body}".casefold()
        matched = sum(text.count(w) for w in words)
        if matched:
            score = round(matched / (len(words) or 1), 2)
            hits.append({"id": doc_id, "title": title, "score": score, "snippet": body[:60],
                         "url": f"https://help.example.com/{doc_id}"})
    hits.sort(key=lambda h: (-h["score"], h["id"]))
    return hits[:limit]


@tool(concurrency_safe=True)
def current_time() -> str:
    """The current time as an ISO 8601 string in UTC."""
    return "2024-06-15T09:30:00+00:00"


# -- audit events ---------------------------------------------------------------------

EventKind = Literal["login", "purchase", "refund", "logout", "error"]


class Event(TypedDict):
    id: int
    at: str
    kind: EventKind
    customer_id: str
    amount: float


class EventPage(TypedDict):
    items: list[Event]
    next_cursor: str | None
    total: int


_EVENT_KINDS: Final[tuple[EventKind, ...]] = (
    "login", "purchase", "purchase", "logout", "refund", "error", "login",
)
_EVENT_COUNT: Final = 47
_EVENT_KINDS_ALL: Final[tuple[EventKind, ...]] = ("login", "purchase", "refund", "logout", "error")


def _events() -> list[Event]:
    """The 47 events, 2024-06-10 to 2024-06-14, spread over the customers by formula."""
    out: list[Event] = []
    for i in range(1, _EVENT_COUNT + 1):
        kind = _EVENT_KINDS[(i * 3) % len(_EVENT_KINDS)]
        amount = round((i * 37) % 200 + 0.99, 2) if kind in ("purchase", "refund") else 0.0
        out.append(
            {
                "id": i,
                "at": f"2024-06-{10 + i // 10:02d}T{(i * 7) % 24:02d}:{(i * 13) % 60:02d}:00+00:00",
                "kind": kind,
                "customer_id": _CUSTOMERS[(i * 5) % len(_CUSTOMERS)].id,
                "amount": amount,
            }
        )
    return out


@tool(concurrency_safe=True)
def list_events(cursor: str | None = None, page_size: int = 10) -> EventPage:
    """The audit event log, oldest first, one page at a time.

    Args:
        cursor: the `next_cursor` of the previous page; None for the first page.
        page_size: events per page, 1 to 20.
    """
    if not 1 <= page_size <= 20:
        raise ValueError(f"page_size must be between 1 and 20, got {page_size}")
    start = 0
    if cursor is not None:
        if not cursor.startswith("cur_") or not cursor[4:].isdigit():
            raise ValueError(f"bad cursor {cursor!r}")
        start = int(cursor[4:])
    end = start + page_size
    return {
        "items": _events()[start:end],
        "next_cursor": f"cur_{end}" if end < _EVENT_COUNT else None,
        "total": _EVENT_COUNT,
    }


# -- the flaky warehouse service --------------------------------------------------------


class WarehouseStock(TypedDict):
    sku: str
    north: int
    south: int


@tool(concurrency_safe=True)
def warehouse_stock(sku: str, ctx: ToolRunContext) -> WarehouseStock:
    """Stock of a SKU per warehouse. The warehouse service is flaky: retry on TimeoutError."""
    # The first 0, 1 or 2 calls for a SKU in a run time out (unknown SKUs too), at
    # once: a simulated failure, no real delay.
    attempts = _state(ctx).warehouse_attempts
    attempt = attempts.get(sku, 0) + 1
    attempts[sku] = attempt
    if attempt <= sum(map(ord, sku)) % 3:
        raise TimeoutError(f"warehouse service timed out for {sku} (attempt {attempt})")
    for p in _PRODUCTS:
        if p.sku == sku:
            return {"sku": sku, "north": p.in_stock // 2, "south": p.in_stock - p.in_stock // 2}
    raise LookupError(f"unknown sku {sku!r}")


# -- raw logs ---------------------------------------------------------------------------

_LOG: Final = """\
2024-06-15 08:01:12 INFO  api    GET /orders/o-1001 200 12ms user=c1
2024-06-15 08:01:15 INFO  api    GET /orders/o-1002 200 15ms user=c1
2024-06-15 08:02:01 WARN  api    GET /customers/c9 404 3ms user=c2
2024-06-15 08:03:44 ERROR billing charge failed card_declined amount=45.00 user=c3
2024-06-15 08:05:10 INFO  api    POST /tickets 201 40ms user=c4
2024-06-15 08:07:59 ERROR api    GET /orders/o-1005 500 250ms user=c2
2024-06-15 08:09:30 INFO  api    GET /products 200 8ms user=c5
2024-06-15 08:10:02 WARN  billing retry scheduled amount=45.00 user=c3
2024-06-15 08:12:45 ERROR billing charge failed insufficient_funds amount=149.00 user=c6
2024-06-15 08:15:00 INFO  api    GET /orders/o-1009 200 22ms user=c6
2024-06-15 08:16:31 INFO  api    DELETE /orders/o-1010 204 31ms user=c6
2024-06-15 08:20:00 ERROR api    GET /search?q=refund 503 1200ms user=c1
"""


@tool(concurrency_safe=True)
def fetch_logs(service: str | None = None) -> str:
    """Raw application log text, one line per entry, oldest first.

    Args:
        service: only this service's lines ("api" or "billing"); None for all.
    """
    lines = [
        line for line in _LOG.splitlines() if service is None or line.split()[3] == service
    ]
    return "\n".join(lines) + "\n"


# -- shipping, price changes and order search: object and list-of-object arguments --------

Speed = Literal["standard", "express", "overnight"]


class ShippingAddress(TypedDict):
    name: str
    street: str
    city: str
    postcode: str
    country: str


class Parcel(TypedDict):
    weight_kg: float
    length_cm: int
    width_cm: int
    height_cm: int
    fragile: NotRequired[bool]


@dataclass
class Shipment:
    id: str
    order_id: str
    speed: Speed
    parcels: int
    total_weight_kg: float
    cost: float
    eta_days: int
    insured: bool


_SPEED_COST: Final = {"standard": (4.5, 5), "express": (9.0, 2), "overnight": (19.0, 1)}


@tool
def create_shipment(
    order_id: str,
    address: ShippingAddress,
    parcels: list[Parcel],
    ctx: ToolRunContext,
    speed: Speed = "standard",
    insured: bool = False,
) -> Shipment:
    """Ship an order's parcels to an address; returns the shipment with its cost in EUR.

    Args:
        order_id: the order to ship, e.g. "o-1003".
        address: where to deliver.
        parcels: one entry per box (at least one).
        speed: the delivery speed.
        insured: insure the parcels (adds 2 % of the order total).
    """
    order = _find_order(order_id, ctx)
    if not parcels:
        raise ValueError("parcels is empty: give at least one parcel")
    for i, parcel in enumerate(parcels):
        if parcel["weight_kg"] <= 0:
            raise ValueError(f"parcels[{i}].weight_kg must be positive, got {parcel['weight_kg']}")
    if order["status"] != "pending":
        raise ValueError(f"order {order_id} is {order['status']}; only pending orders ship")
    base, eta = _SPEED_COST[speed]
    weight = round(sum(p["weight_kg"] for p in parcels), 3)
    fragile = sum(1 for p in parcels if p.get("fragile"))
    cost = base + 1.25 * weight + 3.0 * fragile
    if insured:
        cost += 0.02 * order["total"]
    if address["country"] != "UK":
        eta += 2
    state = _state(ctx)
    state.shipments += 1
    return Shipment(f"SH-{state.shipments:03d}", order_id, speed, len(parcels), weight,
                    round(cost, 2), eta, insured)


class PriceChange(TypedDict):
    sku: str
    new_price: float


class PriceResult(TypedDict):
    sku: str
    old_price: float
    new_price: float
    change_pct: float


@tool
def update_prices(changes: list[PriceChange], ctx: ToolRunContext) -> list[PriceResult]:
    """Change several products' prices at once (all or nothing); returns each change.

    Args:
        changes: one entry per product; new_price in EUR, above 0.
    """
    prices = _state(ctx).prices
    out: list[PriceResult] = []
    for i, change in enumerate(changes):
        product = next((p for p in _PRODUCTS if p.sku == change["sku"]), None)
        if product is None:
            raise LookupError(f"changes[{i}]: unknown sku {change['sku']!r}")
        if change["new_price"] <= 0:
            raise ValueError(f"changes[{i}]: new_price must be above 0, got {change['new_price']}")
        old = prices.get(product.sku, product.price)
        out.append({"sku": product.sku, "old_price": old, "new_price": change["new_price"],
                    "change_pct": round(100 * (change["new_price"] - old) / old, 2)})
    for row in out:
        prices[row["sku"]] = row["new_price"]
    return out


class OrderFilter(TypedDict, total=False):
    status: list[Status]
    customer_ids: list[str]
    min_total: float
    created_after: str


class OrderSummary(TypedDict):
    id: str
    customer_id: str
    status: Status
    total: float


class OrderSearchPage(TypedDict):
    orders: list[OrderSummary]
    next_cursor: str | None


@tool(concurrency_safe=True)
def search_orders(
    ctx: ToolRunContext,
    filters: OrderFilter | None = None,
    cursor: str | None = None,
    limit: int = 4,
) -> OrderSearchPage:
    """Orders matching every given filter, by id, a page at a time.

    Args:
        filters: keep only orders matching all of these (omit a key to not filter on it).
        cursor: the `next_cursor` of the previous page; None for the first page.
        limit: orders per page, 1 to 10.
    """
    if not 1 <= limit <= 10:
        raise ValueError(f"limit must be between 1 and 10, got {limit}")
    f = filters or {}
    rows = [
        o for o in _orders(ctx)
        if ("status" not in f or o["status"] in f["status"])
        and ("customer_ids" not in f or o["customer_id"] in f["customer_ids"])
        and o["total"] >= f.get("min_total", 0.0)
        and o["created"] > f.get("created_after", "")
    ]
    start = 0
    if cursor is not None:
        if not cursor.startswith("ord_") or not cursor[4:].isdigit():
            raise ValueError(f"bad cursor {cursor!r}: pass the next_cursor of the previous page")
        start = int(cursor[4:])
    page = rows[start:start + limit]
    end = start + limit
    return {
        "orders": [{"id": o["id"], "customer_id": o["customer_id"], "status": o["status"],
                    "total": o["total"]} for o in page],
        "next_cursor": f"ord_{end}" if end < len(rows) else None,
    }


class Severity(IntEnum):
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4


class Escalation(TypedDict):
    ticket_id: str
    severity: Severity
    on_call: str


@tool
def escalate_ticket(ticket_id: str, severity: Severity, note: str = "") -> Escalation:
    """Escalate a support ticket to the on-call team.

    Args:
        ticket_id: the ticket, e.g. "T-101".
        severity: 1 (low) to 4 (critical).
        note: optional context for the on-call engineer.
    """
    if not ticket_id.startswith("T-"):
        raise LookupError(f"no ticket {ticket_id!r}")
    on_call = "pager-primary" if severity >= Severity.HIGH else "support-queue"
    return {"ticket_id": ticket_id, "severity": severity, "on_call": on_call}


@tool(concurrency_safe=True)
def stock_levels(skus: list[str]) -> dict[str, Any]:
    """Units in stock for several SKUs at once, by SKU (an unknown SKU is left out)."""
    return {p.sku: p.in_stock for p in _PRODUCTS if p.sku in skus}


@tool(concurrency_safe=True)
def export_events(repeat: int = 1) -> str:
    """The whole audit log as CSV text (header line first); `repeat` copies it for load tests."""
    if not 1 <= repeat <= 500:
        raise ValueError(f"repeat must be between 1 and 500, got {repeat}")
    rows = [f"{e['id']},{e['at']},{e['kind']},{e['customer_id']},{e['amount']}"
            for e in _events()]
    return "id,at,kind,customer_id,amount\n" + "\n".join(rows * repeat) + "\n"


# -- a raw tool whose parameter names are no Python names: the SDK's argument-dict form ------


async def _events_between(args: Any, ctx: ToolRunContext) -> Any:
    start, end = args["from"], args.get("to", "9999-12-31")
    kinds = args.get("kinds")
    if start > end:
        raise ValueError(f"'from' ({start}) is after 'to' ({end})")
    ids = [
        e["id"] for e in _events()
        if start <= e["at"][:10] <= end and (kinds is None or e["kind"] in kinds)
    ]
    return {"from": start, "to": end, "count": len(ids), "ids": ids}


events_between = define_tool(
    name="events_between",
    description="Ids of the audit events between two dates (inclusive), oldest first.",
    parameters={
        "type": "object",
        "properties": {
            "from": {"type": "string", "description": "first day, YYYY-MM-DD"},
            "to": {"type": "string", "description": "last day, YYYY-MM-DD; open-ended if left out"},
            "kinds": {"type": "array", "items": {"enum": list(_EVENT_KINDS_ALL)}},
        },
        "required": ["from"],
        "additionalProperties": False,
    },
    output=ToolOutput(
        schema={
            "title": "EventRange",
            "type": "object",
            "properties": {
                "from": {"type": "string"},
                "to": {"type": "string"},
                "count": {"type": "integer"},
                "ids": {"type": "array", "items": {"type": "integer"}},
            },
            "required": ["from", "to", "count", "ids"],
            "additionalProperties": False,
        }
    ),
    execute=_events_between,
    is_concurrency_safe=lambda _args: True,
)


# -- refunds (a tool's own exception class) and the support rota (a page token left out
# -- on the last page, a StrEnum parameter) -----------------------------------------


class RefundDenied(Exception):
    """A refund the refund policy refuses."""


class Refund(TypedDict):
    order_id: str
    amount: float
    status: Literal["approved", "review"]


@tool
def refund_order(order_id: str, amount: float, ctx: ToolRunContext) -> Refund:
    """Refund part of a shipped or delivered order.

    Refunds above 100 EUR go to review. Raises RefundDenied when the order is
    pending or cancelled, or the amount is not above 0 and at most the order total.

    Args:
        order_id: the order, e.g. "o-1002".
        amount: in EUR.
    """
    order = _find_order(order_id, ctx)
    if order["status"] not in ("shipped", "delivered"):
        raise RefundDenied(f"order {order_id} is {order['status']}: only shipped or delivered "
                           "orders can be refunded")
    if not 0 < amount <= order["total"]:
        raise RefundDenied(f"amount {amount} is not in (0, {order['total']}]")
    return {"order_id": order_id, "amount": amount,
            "status": "review" if amount > 100 else "approved"}


class Team(StrEnum):
    BILLING = "billing"
    SHIPPING = "shipping"
    TECHNICAL = "technical"


class SupportAgent(TypedDict):
    name: str
    team: Team
    languages: list[str]
    on_call: bool


class AgentPage(TypedDict):
    agents: list[SupportAgent]
    # Left out on the last page.
    next_page_token: NotRequired[str]


_AGENTS: Final[tuple[SupportAgent, ...]] = tuple(
    {"name": name, "team": team, "languages": languages, "on_call": on_call}
    for name, team, languages, on_call in (
        ("Ines", Team.BILLING, ["en", "pt"], True),
        ("Jonas", Team.SHIPPING, ["de", "en"], False),
        ("Kemal", Team.TECHNICAL, ["tr", "en"], True),
        ("Lea", Team.BILLING, ["fr"], False),
        ("Mads", Team.TECHNICAL, ["da", "en"], False),
        ("Noor", Team.SHIPPING, ["ar", "en", "fr"], True),
        ("Otto", Team.TECHNICAL, ["de"], True),
    )
)


@tool(concurrency_safe=True)
def list_support_agents(
    team: Team | None = None, page_token: str | None = None, page_size: int = 3
) -> AgentPage:
    """The support rota, by name, a page at a time.

    Args:
        team: only this team's agents.
        page_token: the `next_page_token` of the previous page; omit for the first page.
        page_size: agents per page, 1 to 5.
    """
    if not 1 <= page_size <= 5:
        raise ValueError(f"page_size must be between 1 and 5, got {page_size}")
    rows = [a for a in _AGENTS if team is None or a["team"] == team]
    start = int(page_token) if page_token else 0
    page: AgentPage = {"agents": rows[start:start + page_size]}
    if start + page_size < len(rows):
        page["next_page_token"] = str(start + page_size)
    return page


TOOLS: Final = [
    get_weather, forecast, get_customer, list_customers, find_customer, tag_customer,
    list_orders, get_order, cancel_order, list_products, get_stock, get_exchange_rate,
    send_notification, create_ticket, search_docs, current_time,
    list_events, warehouse_stock, fetch_logs,
    create_shipment, update_prices, search_orders, escalate_ticket, stock_levels, export_events,
    events_between, refund_order, list_support_agents,
]
