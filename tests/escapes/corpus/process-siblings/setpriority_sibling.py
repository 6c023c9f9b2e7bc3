# category: process-siblings
# signal: victim
# expect: refused
# plain: as-nobody (the attack is on a process of the same unprivileged uid)
# tripwire: misses (os.setpriority raises no audit event)
# source: setpriority() on another process of the same uid slows it down
import os
os.setpriority(os.PRIO_PROCESS, {VICTIM_PID}, 19)
