# category: process-siblings
# signal: victim
# expect: refused
# kinds: exception
# plain: skip (reads another process's CPU clock; only a refusal is a pass)
# tripwire: misses (time.clock_gettime raises no audit event)
# source: clock_gettime() with a CPU-clock id encoding another pid ((~pid << 3) | CPUCLOCK_SCHED): the kernel does no permission check, so any pid on the machine can be probed and its CPU time read (process enumeration, a covert channel between concurrent runs, the host's own CPU use)
import time
return time.clock_gettime((~{VICTIM_PID} << 3) | 2)
