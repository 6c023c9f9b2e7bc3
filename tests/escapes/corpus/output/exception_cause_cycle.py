# category: output
# signal: liveness bounded
# kinds: exception
# plain: skip (checks the sandbox's traceback formatting)
# tripwire: harmless (the runtime's and the host's output checks)
# source: two exceptions that are each other's cause: a naive traceback formatter never ends
a = ValueError("a")
b = ValueError("b")
try:
    raise a from b
except ValueError:
    pass
try:
    raise b from a
except ValueError:
    pass
raise a
