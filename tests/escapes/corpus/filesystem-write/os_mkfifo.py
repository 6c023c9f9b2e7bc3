# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: misses (os.mkfifo raises no audit event)
# source: mknod-style creation without open
import os
os.mkfifo("{MARKER_PATH}")
