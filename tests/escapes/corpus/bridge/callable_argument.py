# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (tool arguments are checked as lossless JSON in the child and again on the host)
# source: passing a callable to a tool call would hand the host code to run
await tools.echo(value=lambda: 1)
