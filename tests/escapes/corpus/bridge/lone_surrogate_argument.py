# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# source: a lone surrogate cannot be encoded as UTF-8
await tools.echo(value="\ud800")
