# description: Format mixed tool results for a digest with functools.singledispatch registered by type
# limitation: functools.singledispatch is not in the functools facade
# value: ["188.00", "{sku=HS-07, price=149.00}", "[18.00, 65]", "14 Jun", "None"]
from functools import singledispatch
from datetime import date


@singledispatch
def fmt(value) -> str:
    return str(value)


@fmt.register
def _(value: float) -> str:
    return f"{value:,.2f}"


@fmt.register
def _(value: list) -> str:
    return "[" + ", ".join(fmt(v) for v in value) + "]"


@fmt.register
def _(value: dict) -> str:
    return "{" + ", ".join(f"{k}={fmt(v)}" for k, v in value.items()) + "}"


@fmt.register(date)
def _(value) -> str:
    return value.strftime("%d %b")


o = await tools.get_order(order_id="o-1003")
w = await tools.get_weather(city="Paris")
return [fmt(o["total"]), fmt({"sku": o["lines"][0]["sku"], "price": o["lines"][0]["unit_price"]}),
        fmt([w["celsius"], w["humidity"]]), fmt(date.fromisoformat(o["created"])), fmt(None)]
