# category: process-siblings
# signal: victim
# expect: refused
# plain: as-nobody (the attack is on a process of the same unprivileged uid)
# tripwire: misses (os.sched_setaffinity raises no audit event)
# source: sched_setaffinity() on another process of the same uid pins it to one CPU
import os
os.sched_setaffinity({VICTIM_PID}, {0})
