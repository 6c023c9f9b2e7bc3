# category: bridge
# signal: liveness
# kinds: invalid-output
# plain: skip (checks the sandbox's output validation)
# source: a dict subclass as the return value
class Liar(dict):
    def items(self):
        return [("x", 1)]
return Liar(y=2)
