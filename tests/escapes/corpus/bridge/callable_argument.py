# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# source: passing a callable to a tool call would hand the host code to run
await tools.echo(value=lambda: 1)
