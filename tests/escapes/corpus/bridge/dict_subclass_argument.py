# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (tool arguments are checked as lossless JSON in the child and again on the host)
# source: a dict subclass whose items() lies about its content
class Liar(dict):
    def items(self):
        return [("x", lambda: 1)]
    def keys(self):
        return ["x"]
await tools.echo(value=Liar(y=1))
