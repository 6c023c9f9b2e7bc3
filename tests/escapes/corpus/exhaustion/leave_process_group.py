# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# expect: refused
# plain: skip (never ends)
# source: leaving the process group the host kills on timeout
import os
try:
    os.setsid()
except OSError:
    os.setpgid(0, 0)
while True:
    pass
