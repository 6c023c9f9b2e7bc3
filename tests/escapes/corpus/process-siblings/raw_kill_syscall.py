# category: process-siblings
# signal: victim
# expect: refused
# plain: as-nobody (the attack is on a process of the same unprivileged uid)
# tripwire: stops ctypes.dlopen
# source: the kill syscall made directly through libc's syscall(), past the os module
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall(62, {VICTIM_PID}, 9)
