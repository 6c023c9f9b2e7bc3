# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops os.mkdir
# source: variant of os_mkdir: makedirs creates the parents and the leaf
import os
os.makedirs("{MARKER_PATH}/a/b", exist_ok=True)
