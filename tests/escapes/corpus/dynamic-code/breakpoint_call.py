# category: dynamic-code
# signal: liveness
# expect: refused
# plain: skip (would wait on a debugger prompt)
# source: breakpoint() starts a debugger reading commands from stdin
breakpoint()
