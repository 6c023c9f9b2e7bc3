# category: state
# signal: ipc
# expect: refused
# tripwire: stops ctypes.dlopen
# source: a System V semaphore set outlives the process
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.semget({IPC_KEY}, 1, 0o1000 | 0o666)
