# category: bridge
# signal: liveness
# kinds: invalid-output
# plain: skip (checks the sandbox's output validation)
# tripwire: harmless (the return value is checked as lossless JSON)
# source: a dict subclass as the return value
class Liar(dict):
    def items(self):
        return [("x", 1)]
return Liar(y=2)
