# category: bridge
# signal: liveness
# kinds: invalid-output
# plain: skip (checks the sandbox's output validation)
# tripwire: harmless (the return value is checked as lossless JSON)
# source: a return value with hooks that run during serialisation
class Hostile:
    def __iter__(self):
        while True:
            yield 1
return {"value": Hostile()}
