# category: exhaustion
# signal: limit
# kinds: timeout exception
# plain: skip (needs the sandbox's tools binding)
# source: tool calls forever, each answered at once by the host
while True:
    await tools.echo(value=1)
