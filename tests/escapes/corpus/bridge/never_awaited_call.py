# category: bridge
# signal: handler
# kinds: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (the runtime reports the call that was never awaited)
# source: a call that is created and dropped must be reported, not silently lost
tools.echo(value=1)
return 1
