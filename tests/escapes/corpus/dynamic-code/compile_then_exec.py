# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops compile
# source: compile() builds an unchecked code object
code = compile("import os\nos.system('touch {MARKER_PATH}')", "x", "exec")
exec(code)
