# category: process
# signal: marker
# expect: refused
# tripwire: stops os.fork
# source: the old spawn* family
import os
os.spawnv(os.P_WAIT, "/usr/bin/touch", ["touch", "{MARKER_PATH}"])
