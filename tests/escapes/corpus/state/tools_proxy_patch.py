# category: state
# signal: state
# expect: refused
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (a fresh child per run: the changed state dies with it)
# source: replacing a tool on the proxy for later programs
tools.echo = lambda **kwargs: "poisoned"
