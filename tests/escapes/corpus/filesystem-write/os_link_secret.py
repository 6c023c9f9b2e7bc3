# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops os.link
# source: a hard link to the secret makes it reachable from a second path
import os
os.link("{SECRET_PATH}", "{MARKER_PATH}")
