# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (tool arguments are checked as lossless JSON in the child and again on the host)
# source: a lone surrogate cannot be encoded as UTF-8
await tools.echo(value="\ud800")
