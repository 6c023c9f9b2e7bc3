# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops os.symlink
# source: a symlink is created without opening anything
import os
os.symlink("/etc/passwd", "{MARKER_PATH}")
