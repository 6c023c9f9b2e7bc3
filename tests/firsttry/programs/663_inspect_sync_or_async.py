# description: A decorator that times both sync and async helpers using inspect
# value: {"paris_f": 64.4, "calls": ["temp", "to_f"]}
# limitation: the inspect module is not available in run_code; the refusal names the collections.abc.Awaitable check
import inspect
import functools

calls = []

def traced(fn):
    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            calls.append(fn.__name__)
            return await fn(*args, **kwargs)
    else:
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            calls.append(fn.__name__)
            return fn(*args, **kwargs)
    return wrapper

@traced
async def temp(city):
    return (await tools.get_weather(city=city))["celsius"]

@traced
def to_f(c):
    return round(c * 9 / 5 + 32, 1)

return {"paris_f": to_f(await temp("Paris")), "calls": calls}
