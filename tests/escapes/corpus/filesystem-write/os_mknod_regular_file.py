# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: misses (os.mknod raises no audit event; the language layer never hands out os and the OS layer has no mknod)
# source: variant of os_open_creat: mknod with S_IFREG creates a regular file without open
import os, stat
os.mknod("{MARKER_PATH}", stat.S_IFREG | 0o600)
