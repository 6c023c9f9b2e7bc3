# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops open
# source: classic; raw O_CREAT through os
import os
os.close(os.open("{MARKER_PATH}", os.O_CREAT | os.O_WRONLY, 0o644))
