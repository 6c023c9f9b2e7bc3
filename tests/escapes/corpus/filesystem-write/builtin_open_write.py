# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops open
# source: classic; the builtin open() in write mode
open("{MARKER_PATH}", "w").write("escaped")
