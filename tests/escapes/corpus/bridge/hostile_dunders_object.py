# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (tool arguments are checked as lossless JSON in the child and again on the host)
# source: an object whose conversion hooks run code while the bridge serialises it
class Hostile:
    def __eq__(self, other):
        return True
    def __hash__(self):
        return 0
    def __str__(self):
        return "hostile"
    def __len__(self):
        return 0
await tools.echo(value=Hostile())
