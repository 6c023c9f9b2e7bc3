# description: Track per-city alerts with closure-based counters, accumulators and late-binding-safe callbacks
# value: {"alerts": ["Oslo", "Tokyo", "Cairo"], "count": 3, "after_step": 8, "hist": ["Tokyo", "Cairo", "Paris"], "late": [2, 2, 2], "early": [0, 1, 2], "adders": {"1": 101, "10": 110}, "names": ["check", "inc"]}
# limitation: a returned dict with int keys is refused, plain json.dumps converts them
def make_counter():
    count = 0

    def inc(step=1):
        nonlocal count
        count += step
        return count

    def get():
        return count
    return inc, get


def threshold_checker(limit):
    def check(w):
        return w["celsius"] > limit
    return check


def make_history(maxlen):
    items = []

    def push(x):
        items.append(x)
        del items[:-maxlen]
        return list(items)
    return push


hot = threshold_checker(20)
cold = threshold_checker(10)
inc, get = make_counter()
push = make_history(3)
alerts = []
for city in ["London", "Oslo", "Tokyo", "Cairo", "Paris"]:
    w = await tools.get_weather(city=city)
    if hot(w) or not cold(w):
        inc()
        alerts.append(city)
    hist = push(city)

late = [lambda: i for i in range(3)]
early = [lambda i=i: i for i in range(3)]
adders = {n: (lambda x, n=n: x + n) for n in (1, 10)}
return {"alerts": alerts, "count": get(), "after_step": inc(5), "hist": hist, "late": [f() for f in late], "early": [f() for f in early],
        "adders": {k: f(100) for k, f in adders.items()},
        "names": [hot.__name__, inc.__name__]}
