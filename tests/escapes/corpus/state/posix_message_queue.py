# category: state
# signal: ipc
# expect: refused
# tripwire: stops ctypes.dlopen
# source: a POSIX message queue is created by a system call, not open(), and outlives the process
import ctypes
import os
libc = ctypes.CDLL(None, use_errno=True)
queue = libc.mq_open(b"/codemode-{IPC_KEY}", os.O_CREAT | os.O_RDWR, 0o666, None)
libc.mq_send(queue, b"left-behind", 11, 0)
