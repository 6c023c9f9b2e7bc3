# category: process-siblings
# signal: victim
# expect: refused
# plain: as-nobody (the attack is on a process of the same unprivileged uid)
# tripwire: misses (os.sched_setscheduler raises no audit event)
# source: sched_setscheduler() on another process of the same uid demotes it to SCHED_IDLE
import os
os.sched_setscheduler({VICTIM_PID}, os.SCHED_IDLE, os.sched_param(0))
