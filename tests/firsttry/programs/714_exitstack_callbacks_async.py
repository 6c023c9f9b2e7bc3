# description: AsyncExitStack with push_async_callback and ExitStack.callback for cleanup order
# value: ["work", "close b", "close a", "stock KB-01=14", "stock HD-10=42", "release HD-10", "release KB-01"]
import contextlib

order = []

async def release(name):
    order.append(f"release {name}")

with contextlib.ExitStack() as stack:
    for name in ["a", "b"]:
        stack.callback(order.append, f"close {name}")
    order.append("work")

async with contextlib.AsyncExitStack() as astack:
    for sku in ["KB-01", "HD-10"]:
        astack.push_async_callback(release, sku)
        order.append(f"stock {sku}={await tools.get_stock(sku=sku)}")
return order
