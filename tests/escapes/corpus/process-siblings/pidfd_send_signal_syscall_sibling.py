# category: process-siblings
# signal: victim
# expect: refused
# plain: as-nobody (the attack is on a process of the same unprivileged uid)
# tripwire: stops ctypes.dlopen
# source: pidfd_open and pidfd_send_signal made directly through libc's syscall(), past the os and signal modules
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
descriptor = libc.syscall(434, {VICTIM_PID}, 0)
libc.syscall(424, descriptor, 9, None, 0)
