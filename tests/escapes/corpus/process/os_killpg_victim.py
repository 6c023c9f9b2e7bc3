# category: process
# signal: victim
# expect: refused
# source: signalling another process group
import os
os.killpg(os.getpgid({VICTIM_PID}), 9)
