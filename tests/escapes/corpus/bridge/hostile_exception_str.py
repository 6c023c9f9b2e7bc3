# category: bridge
# signal: liveness
# kinds: exception timeout worker-exit
# plain: skip (checks the sandbox's containment)
# source: an exception whose __str__ raises while the runtime formats it
class Hostile(Exception):
    def __str__(self):
        raise RuntimeError("no message for you")
raise Hostile()
