# category: state
# signal: ipc
# expect: refused
# tripwire: stops ctypes.dlopen
# source: a System V message queue carries data from one run to a later one
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
queue = libc.msgget({IPC_KEY}, 0o1000 | 0o666)
message = ctypes.create_string_buffer(b"\x01\x00\x00\x00\x00\x00\x00\x00left-behind")
libc.msgsnd(queue, message, 11, 0)
