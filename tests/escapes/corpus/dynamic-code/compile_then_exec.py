# category: dynamic-code
# signal: marker
# expect: refused
# source: compile() builds an unchecked code object
code = compile("import os\nos.system('touch {MARKER_PATH}')", "x", "exec")
exec(code)
