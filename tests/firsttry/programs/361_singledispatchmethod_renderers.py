# description: Render tool results of different types with singledispatchmethod, partialmethod and reduce
# value: {"text": "city:\n  'Oslo'\ntemps:\n  6.50\n  1.00\nwind:\n  22.00", "bold": "<b>hi</b>", "code": "<code>x=1</code>", "grand": 754.0, "longest": "abcd"}
# logs: ["city:", "  'Oslo'", "temps:", "  6.50", "  1.00", "wind:", "  22.00"]
# limitation: functools.singledispatchmethod is not in the run_code functools facade
from functools import partialmethod, reduce, singledispatchmethod


class Renderer:
    def __init__(self, indent: int = 2) -> None:
        self.indent = indent

    @singledispatchmethod
    def render(self, value, depth: int = 0) -> str:
        return f"{' ' * depth}{value!r}"

    @render.register
    def _(self, value: dict, depth: int = 0) -> str:
        pad = " " * depth
        inner = [f"{pad}{k}:\n{self.render(v, depth + self.indent)}" for k, v in value.items()]
        return "\n".join(inner)

    @render.register
    def _(self, value: list, depth: int = 0) -> str:
        return "\n".join(self.render(v, depth) for v in value)

    @render.register(float)
    def _(self, value, depth: int = 0) -> str:
        return f"{' ' * depth}{value:.2f}"

    def tag(self, text: str, kind: str) -> str:
        return f"<{kind}>{text}</{kind}>"

    bold = partialmethod(tag, kind="b")
    code = partialmethod(tag, kind="code")


r = Renderer()
weather = await tools.get_weather(city="Oslo")
text = r.render({"city": weather["city"], "temps": [weather["celsius"], 1.0], "wind": weather["wind_kph"]})
print(text)
totals = [o["total"] for o in await tools.list_orders(customer_id="c6")]
grand = reduce(lambda acc, x: acc + x, totals, 0.0)
longest = reduce(lambda a, b: a if len(a) >= len(b) else b, ["ab", "abcd", "abc"])
return {"text": text, "bold": r.bold("hi"), "code": r.code("x=1"), "grand": round(grand, 2), "longest": longest}
