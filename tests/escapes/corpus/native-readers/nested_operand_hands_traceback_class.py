# category: native-readers
# signal: leak
# leak: <class 'traceback'>
# expect: refused timeout
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure of a class the runtime withholds, judged with the language layer on)
# source: rule 8's shield looked only at the operand itself (hidden_class(arg)), not inside it; typing's Union cache holds the key (Union, (TracebackType, NoneType)) from a library's Optional[TracebackType] annotation, and a program tuple subclass whose __hash__ is solved to equal hash((TracebackType, NoneType)) (static types lie at fixed offsets from id(int); the probe raises on its first own comparison, so it is never cached) makes the C dict compare the keys item by item, calling the probe's reflected __eq__ with the library's exact tuple, hidden class inside
import typing
MASK = (1 << 64) - 1
P1 = 11400714785074694791
P2 = 14029467366897019727
P5 = 2870177450012600261
def rotl(x):
    return ((x << 31) | (x >> 33)) & MASK
def tuple_hash(lanes):
    acc = P5
    for lane in lanes:
        acc = (rotl((acc + (lane & MASK) * P2) & MASK) * P1) & MASK
    return (acc + (len(lanes) ^ (P5 ^ 3527539))) & MASK
def signed(x):
    return x - (1 << 64) if x >= (1 << 63) else x
caught = []
class Probe(tuple):
    def __hash__(self):
        return self.h
    def __eq__(self, other):
        if other == ():
            raise TypeError("never cached")
        caught.append(other)
        return False
h_none = hash(type(None))
base = id(int)
tries = 0
for k in range(0, 1 << 15):
    delta = (k // 2 + 1) * 8 * (1 if k % 2 == 0 else -1)
    addr = base + delta
    g = ((addr >> 4) | ((addr & 15) << 60)) & MASK
    p = Probe(())
    p.h = signed(tuple_hash([g, h_none]))
    tries += 1
    try:
        typing.Union[p]
    except TypeError:
        pass
    if any(getattr(c, "__qualname__", "") == "traceback" for t in caught for c in t):
        break
if not any(getattr(c, "__qualname__", "") == "traceback" for t in caught for c in t):
    raise LookupError("no library key holding a withheld class reached the probe in " + str(tries) + " tries")
out = [repr(caught)]
held = caught[-1]
for c in held:
    out.append(c.__qualname__ + " is a class: " + str(isinstance(c, type)))
    out.append("dir: " + ",".join(n for n in dir(c) if not n.startswith("_")))
return out
