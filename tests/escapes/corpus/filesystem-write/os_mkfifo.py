# category: filesystem-write
# signal: marker
# expect: refused
# source: mknod-style creation without open
import os
os.mkfifo("{MARKER_PATH}")
