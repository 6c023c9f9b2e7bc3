# description: A tracing decorator for sync and async helpers that awaits what is awaitable
# value: {"paris_f": 64.4, "calls": ["temp", "to_f"]}
import collections.abc
import functools

calls = []

def traced(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        calls.append(fn.__name__)
        result = fn(*args, **kwargs)
        if isinstance(result, collections.abc.Awaitable):
            result = await result
        return result
    return wrapper

@traced
async def temp(city):
    return (await tools.get_weather(city=city))["celsius"]

@traced
def to_f(c):
    return round(c * 9 / 5 + 32, 1)

return {"paris_f": await to_f(await temp("Paris")), "calls": calls}
