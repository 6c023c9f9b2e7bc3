# category: dynamic-code
# signal: liveness
# expect: refused
# plain: skip (would wait on a debugger prompt)
# tripwire: stops builtins.breakpoint
# source: breakpoint() starts a debugger reading commands from stdin
breakpoint()
