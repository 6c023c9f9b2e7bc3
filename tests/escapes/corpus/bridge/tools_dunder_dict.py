# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (tools holds nothing but its tool stubs)
# source: the proxy's own namespace, to find the channel behind it
channel = vars(tools)
await tools.echo(value=str(channel))
