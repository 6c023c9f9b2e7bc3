# category: exhaustion
# signal: limit
# kinds: timeout exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (the host's limits on calls in flight and the wall clock)
# source: tool calls forever, each answered at once by the host
while True:
    await tools.echo(value=1)
