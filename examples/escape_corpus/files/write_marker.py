# category: files
# signal: marker
# expect: refused
# tripwire: stops open
# source: writing a file into a directory anyone may write to
with open("{MARKER_PATH}", "w") as handle:
    handle.write("escaped")
