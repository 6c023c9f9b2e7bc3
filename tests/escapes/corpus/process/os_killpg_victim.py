# category: process
# signal: victim
# expect: refused
# tripwire: stops os.killpg
# source: signalling another process group
import os
os.killpg(os.getpgid({VICTIM_PID}), 9)
