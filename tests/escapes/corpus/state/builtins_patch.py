# category: state
# signal: state
# expect: refused
# tripwire: harmless (a fresh child per run: the changed state dies with it)
# source: replacing a builtin for later programs
import builtins
builtins.len = lambda obj: 0
