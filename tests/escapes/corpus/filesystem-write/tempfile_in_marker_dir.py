# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops open
# source: tempfile picks its own name; any new file in the directory counts
import tempfile
tempfile.NamedTemporaryFile(dir="{MARKER_DIR}", delete=False).close()
