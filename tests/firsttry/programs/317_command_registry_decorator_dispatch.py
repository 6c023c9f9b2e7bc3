# description: Answer a batch of operator commands through a small command registry built with decorators
# value: {"answers": ["KB-01: 14 units", "Cairo: 33.5\u00b0C, sunny", "2024-06-15T09:30:00+00:00", "usage: stock <arg>", "error: tool \"get_weather\" raised LookupError: unknown city 'Narnia'; known cities: Cairo, London, New York, Oslo, Paris, Sydney, Tokyo", "unknown command 'frobnicate'", "help_: List commands.; now: ; stock: Units in stock for a SKU.; weather: Current conditions.", "HD-10: 42 units"], "aliases": ["?", "help", "s", "stock", "time", "w", "weather"], "wrapped_name": "stock"}
# logs: ["> s KB-01", "KB-01: 14 units", "> weather cairo", "Cairo: 33.5\u00b0C, sunny", "> time", "2024-06-15T09:30:00+00:00", "> stock", "usage: stock <arg>", "> w Narnia", "error: tool \"get_weather\" raised LookupError: unknown city 'Narnia'; known cities: Cairo, London, New York, Oslo, Paris, Sydney, Tokyo", "> frobnicate x", "unknown command 'frobnicate'", "> ? ", "help_: List commands.; now: ; stock: Units in stock for a SKU.; weather: Current conditions.", "> S hd-10", "HD-10: 42 units"]
import functools

COMMANDS: dict = {}

def command(name: str, *aliases: str, needs_arg: bool = True):
    def register(fn):
        @functools.wraps(fn)
        async def run(arg=None):
            if needs_arg and not arg:
                return f"usage: {name} <arg>"
            return await fn(arg) if needs_arg else await fn()
        for key in (name, *aliases):
            COMMANDS[key] = run
        return run
    return register

@command("stock", "s")
async def stock(sku):
    """Units in stock for a SKU."""
    return f"{sku}: {await tools.get_stock(sku=sku)} units"

@command("weather", "w")
async def weather(city):
    """Current conditions."""
    w = await tools.get_weather(city=city)
    return f"{w['city']}: {w['celsius']}°C, {w['condition']}"

@command("time", needs_arg=False)
async def now():
    """Current UTC time."""
    return await tools.current_time()

@command("help", "?", needs_arg=False)
async def help_():
    """List commands."""
    names = sorted({f.__name__ for f in COMMANDS.values()})
    return "; ".join(f"{n}: {COMMANDS[n.rstrip('_')].__doc__ if n.rstrip('_') in COMMANDS else ''}" for n in names)

script = ["s KB-01", "weather cairo", "time", "stock", "w Narnia", "frobnicate x", "? ", "S hd-10"]
answers = []
for line in script:
    verb, _, arg = line.strip().partition(" ")
    handler = COMMANDS.get(verb.lower())
    if handler is None:
        answers.append(f"unknown command {verb!r}")
        continue
    try:
        answers.append(await handler(arg.strip().upper() if verb.lower() in ("s", "stock") else arg.strip()))
    except ToolCallError as e:
        answers.append(f"error: {e}")
for q, a in zip(script, answers):
    print(f"> {q}\n{a}")
return {"answers": answers, "aliases": sorted(COMMANDS), "wrapped_name": COMMANDS["s"].__name__}
