# category: process-siblings
# signal: victim
# expect: refused
# plain: skip (container runtimes and Yama often refuse ptrace outright, so plain CPython cannot show the harm everywhere)
# tripwire: stops ctypes.dlopen
# source: ptrace(PTRACE_SEIZE) then interrupt another process of the same uid
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace(0x4206, {VICTIM_PID}, 0, 0)
libc.ptrace(0x4207, {VICTIM_PID}, 0, 0)
