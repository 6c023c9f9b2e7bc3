# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops open
# source: classic; append mode creates the file too
import io
io.open("{MARKER_PATH}", "a").close()
