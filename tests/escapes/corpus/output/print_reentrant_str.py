# category: output
# signal: liveness bounded
# plain: skip (checks the sandbox's output capture)
# tripwire: harmless (the runtime's and the host's output checks)
# source: a __str__ that prints while print() is formatting it re-enters the capture
class Loud:
    def __str__(self):
        for i in range(200):
            print("inner " * 50)
        return "outer " * 5000
for _ in range(50):
    print(Loud())
return "done"
