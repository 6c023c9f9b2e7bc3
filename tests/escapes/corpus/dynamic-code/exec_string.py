# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops compile
# source: classic; exec of a string skips the compile-time policy
exec("import os; os.system('touch {MARKER_PATH}')")
