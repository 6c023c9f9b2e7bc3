# category: process
# signal: marker
# expect: refused
# tripwire: stops os.exec
# source: replacing the process image keeps the pid the host waits on
import os
os.execv("/bin/sh", ["sh", "-c", "touch {MARKER_PATH}"])
