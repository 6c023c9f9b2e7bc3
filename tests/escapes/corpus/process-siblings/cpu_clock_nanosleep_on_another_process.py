# category: process-siblings
# signal: victim
# expect: refused
# kinds: exception
# plain: skip (arms a CPU timer on another process; only a refusal is a pass)
# tripwire: misses (clock_nanosleep through ctypes raises no audit event once ctypes is loaded)
# source: clock_nanosleep() on another process's CPU clock arms a kernel CPU timer on that process (no permission check) and wakes when it has used the given CPU time
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
class Timespec(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]
# TIMER_ABSTIME with a time already passed: returns at once, unless refused
status = libc.clock_nanosleep(ctypes.c_int((~{VICTIM_PID} << 3) | 2), 1, ctypes.byref(Timespec(0, 1)), None)
if status:
    raise OSError(status, "clock_nanosleep refused")
return status
