# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (tool arguments are checked as lossless JSON in the child and again on the host)
# source: a str subclass carrying hooks of its own
class Sneaky(str):
    def encode(self, *args, **kwargs):
        raise SystemExit("sneaky")
await tools.echo(value=Sneaky("x"))
