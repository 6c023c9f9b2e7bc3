# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
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
