# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# source: a str subclass carrying hooks of its own
class Sneaky(str):
    def encode(self, *args, **kwargs):
        raise SystemExit("sneaky")
await tools.echo(value=Sneaky("x"))
