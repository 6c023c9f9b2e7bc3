# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (tool arguments are checked as lossless JSON in the child and again on the host)
# source: a list subclass whose iteration yields something else
class Liar(list):
    def __iter__(self):
        return iter([lambda: 1])
await tools.echo(value=Liar([1]))
