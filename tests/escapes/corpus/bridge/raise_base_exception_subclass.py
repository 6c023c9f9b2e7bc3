# category: bridge
# signal: liveness
# kinds: exception
# plain: skip (checks the sandbox's containment)
# tripwire: harmless (the runtime contains every exception the program raises)
# source: a BaseException subclass that no except Exception catches
class Escape(BaseException):
    pass
raise Escape("out")
