# category: process-siblings
# signal: victim
# expect: refused
# plain: as-nobody (the attack is on a process of the same unprivileged uid)
# tripwire: stops ctypes.dlopen
# source: rt_sigqueueinfo (a queued signal with its own siginfo, SI_QUEUE) to another process of the same uid, a signal call other than kill
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
info = (ctypes.c_int * 32)()
info[0] = 9  # si_signo: SIGKILL
info[2] = -1  # si_code: SI_QUEUE, which a process may send to another
libc.syscall(129, {VICTIM_PID}, 9, ctypes.byref(info))
