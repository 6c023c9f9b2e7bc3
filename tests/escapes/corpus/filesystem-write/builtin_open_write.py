# category: filesystem-write
# signal: marker
# expect: refused
# source: classic; the builtin open() in write mode
open("{MARKER_PATH}", "w").write("escaped")
