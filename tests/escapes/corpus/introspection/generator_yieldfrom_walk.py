# category: introspection
# signal: leak
# leak: <frame|<generator
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: pyjail generator walk through gi_yieldfrom to the delegated generator's frame
def a():
    yield 1
def b():
    yield from a()
g = b()
next(g)
return repr(getattr(getattr(g, "gi_yieldfrom"), "gi_frame"))
