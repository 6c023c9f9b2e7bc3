# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# source: NaN is not JSON
await tools.echo(value=float("nan"))
