# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# expect: refused
# plain: skip (never ends)
# tripwire: harmless (os.setsid raises no audit event; the host kills the child by pid as well as by group)
# source: leaving the process group the host kills on timeout, then spinning
import os
try:
    os.setsid()
except OSError:
    pass
try:
    os.setpgid(0, 0)
except OSError:
    pass
while True:
    pass
