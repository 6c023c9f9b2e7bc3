# category: process
# signal: liveness
# expect: refused
# plain: skip (would kill the test process itself)
# tripwire: stops os.kill
# source: killing the parent (the zygote or the host) would stop every later run
import os
os.kill(os.getppid(), 9)
