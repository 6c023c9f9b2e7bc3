# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops import gzip
# source: variant of open_append: a compression library creates the file
import gzip
with gzip.open("{MARKER_PATH}", "wb") as out:
    out.write(b"x")
