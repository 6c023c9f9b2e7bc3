# description: Process stock checks with try/except/else/finally flow, continue/break in loops and suppress
# value: {"status": {"KB-01": "ok", "MS-02": "out", "ZZ-00": "missing", "MN-27": "low", "CB-05": "ok"}, "finally": "try", "trace": ["looked KB-01", "looked MS-02", "looked ZZ-00", "looked MN-27", "looked CB-05", "big one, stop", "ratio KB-01=7", "done KB-01", "done MS-02", "missing ZZ-00", "done ZZ-00", "ratio MN-27=16", "done MN-27", "ratio CB-05=0", "done CB-05", "before", "loop 1", "loop 2", "loop 3", "finally ran before return"]}
import contextlib

trace = []


def checked(sku, stock):
    try:
        if stock is None:
            raise LookupError(sku)
        if stock == 0:
            return "out"
        ratio = 100 // stock
    except LookupError:
        trace.append(f"missing {sku}")
        return "missing"
    else:
        trace.append(f"ratio {sku}={ratio}")
        return "low" if stock < 10 else "ok"
    finally:
        trace.append(f"done {sku}")


stocks = {}
for sku in ["KB-01", "MS-02", "ZZ-00", "MN-27", "CB-05", "HS-07"]:
    try:
        stocks[sku] = await tools.get_stock(sku=sku)
    except ToolCallError:
        stocks[sku] = None
        continue
    finally:
        trace.append(f"looked {sku}")
    if stocks[sku] > 100:
        trace.append("big one, stop")
        break

status = {sku: checked(sku, n) for sku, n in stocks.items()}


def finally_wins():
    try:
        return "try"
    finally:
        trace.append("finally ran before return")


with contextlib.suppress(ZeroDivisionError):
    trace.append("before")
    1 / 0
    trace.append("after")
count = 0
while True:
    try:
        count += 1
        if count == 3:
            break
    finally:
        trace.append(f"loop {count}")
return {"status": status, "finally": finally_wins(), "trace": trace}
