# category: state
# signal: ipc
# expect: refused
# tripwire: stops ctypes.dlopen
# source: System V shared memory outlives the process and is shared by every process of the same uid
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
shmid = libc.shmget({IPC_KEY}, 1 << 20, 0o1000 | 0o666)
address = ctypes.c_void_p(libc.shmat(shmid, None, 0))
ctypes.memset(address, 120, 1 << 20)
