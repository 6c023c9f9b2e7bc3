# category: state
# signal: state
# expect: refused
# source: replacing a builtin for later programs
import builtins
builtins.len = lambda obj: 0
