# category: process
# signal: victim
# expect: refused
# tripwire: stops os.kill
# source: signalling a process the program does not own
import os
os.kill({VICTIM_PID}, 9)
