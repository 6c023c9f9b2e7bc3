# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# source: a bound method is a callable with a __self__
await tools.echo(value=[].append)
