# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (tool arguments are checked as lossless JSON in the child and again on the host)
# source: tuples and sets are not lossless JSON
await tools.echo(value=(1, 2), other={3})
