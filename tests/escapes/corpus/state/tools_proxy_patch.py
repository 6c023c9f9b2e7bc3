# category: state
# signal: state
# expect: refused
# plain: skip (needs the sandbox's tools binding)
# source: replacing a tool on the proxy for later programs
tools.echo = lambda **kwargs: "poisoned"
