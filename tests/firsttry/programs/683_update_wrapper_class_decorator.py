# description: A class-based call counter decorator using functools.update_wrapper
# value: {"gross": [429.59, 117.0], "calls": 2, "name": "vat", "doc": "Add 20 % VAT."}
import functools

class CountCalls:
    def __init__(self, func):
        functools.update_wrapper(self, func)
        self.func = func
        self.calls = 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.func(*args, **kwargs)

@CountCalls
def vat(amount):
    """Add 20 % VAT."""
    return round(amount * 1.2, 2)

orders = await tools.list_orders(customer_id="c4")
gross = [vat(o["total"]) for o in orders]
return {"gross": gross, "calls": vat.calls, "name": vat.__name__, "doc": vat.__doc__}
