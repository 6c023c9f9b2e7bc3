# category: bridge
# signal: liveness
# expect: refused
# plain: skip (would close the test process's descriptors)
# tripwire: harmless (closing its own pipes ends only its own run)
# source: closing every descriptor, the protocol included
import os
os.closerange(0, 4096)
