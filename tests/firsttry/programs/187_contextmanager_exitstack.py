# description: Track timing sections and cleanup with contextlib.contextmanager and ExitStack
# value: ["enter fetch", "FETCH", "ok fetch", "exit fetch", "enter lookup", "handled LookupError in lookup", "exit lookup", "enter a", "enter b", "callback ran", "collected 2", "ok b", "exit b", "ok a", "exit a", "enter fatal", "exit fatal", "outer caught ValueError", "nullcontext snow"]
import contextlib

events = []


@contextlib.contextmanager
def section(name):
    events.append(f"enter {name}")
    try:
        yield name.upper()
    except LookupError as e:
        events.append(f"handled {type(e).__name__} in {name}")
    else:
        events.append(f"ok {name}")
    finally:
        events.append(f"exit {name}")


@contextlib.contextmanager
def collecting():
    bucket = []
    yield bucket
    events.append(f"collected {len(bucket)}")


with section("fetch") as label:
    weather = await tools.get_weather(city="Oslo")
    events.append(label)

with section("lookup"):
    raise LookupError("no such thing")

with contextlib.ExitStack() as stack:
    names = [stack.enter_context(section(n)) for n in ("a", "b")]
    bucket = stack.enter_context(collecting())
    bucket.extend(names)
    stack.callback(events.append, "callback ran")

try:
    with section("fatal"):
        raise ValueError("not handled")
except ValueError:
    events.append("outer caught ValueError")

with contextlib.suppress(KeyError, IndexError):
    {}["x"]
    events.append("unreachable")

with contextlib.nullcontext(weather["condition"]) as cond:
    events.append(f"nullcontext {cond}")
return events
