# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# source: a dict with a non-string key
await tools.echo(value={1: "x"})
