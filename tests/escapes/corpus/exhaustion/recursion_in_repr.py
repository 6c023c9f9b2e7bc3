# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# plain: skip (checks the sandbox's limits)
# tripwire: harmless (the interpreter's recursion limit)
# source: recursion hidden in a conversion hook the runtime calls
class Loop:
    def __repr__(self):
        return repr(self)
print(repr(Loop()))
