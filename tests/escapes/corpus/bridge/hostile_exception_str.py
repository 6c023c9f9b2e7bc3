# category: bridge
# signal: liveness
# kinds: exception timeout worker-exit
# plain: skip (checks the sandbox's containment)
# tripwire: harmless (the runtime contains every exception the program raises)
# source: an exception whose __str__ raises while the runtime formats it
class Hostile(Exception):
    def __str__(self):
        raise RuntimeError("no message for you")
raise Hostile()
