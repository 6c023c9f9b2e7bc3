# category: process-siblings
# signal: victim
# expect: refused
# plain: as-nobody (the attack is on a process of the same unprivileged uid)
# tripwire: stops resource.prlimit
# source: prlimit() on another process of the same uid lowers its limits (a victim that shares the child's uid)
import resource
resource.prlimit({VICTIM_PID}, resource.RLIMIT_NOFILE, (3, 3))
