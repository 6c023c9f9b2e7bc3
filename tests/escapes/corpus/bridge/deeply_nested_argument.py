# category: bridge
# signal: handler liveness
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (tool arguments are checked as lossless JSON in the child and again on the host)
# source: nesting deep enough to exhaust a recursive encoder or decoder
value = []
for _ in range(200000):
    value = [value]
await tools.echo(value=value)
