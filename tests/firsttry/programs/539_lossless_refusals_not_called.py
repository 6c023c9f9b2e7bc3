# description: See how non-JSON arguments are refused before a tool is called
# value: {"set": {"code": null, "type": null, "tool": "stock_levels"}, "inf": {"code": null, "type": null, "tool": "update_prices"}, "bigint": {"code": null, "type": null, "tool": "forecast"}, "bytes": {"code": null, "type": null, "tool": "get_stock"}}
import math
cases = {
    "set": lambda: tools.stock_levels(skus={"KB-01"}),
    "inf": lambda: tools.update_prices(changes=[{"sku": "KB-01", "new_price": math.inf}]),
    "bigint": lambda: tools.forecast(city="Oslo", days=2**53 + 1),
    "bytes": lambda: tools.get_stock(sku=b"KB-01"),
}
out = {}
for label, make in cases.items():
    try:
        await make()
        out[label] = "called"
    except ToolCallError as e:
        out[label] = {"code": e.code, "type": e.type,
                      "tool": e.tool_name}
return out
