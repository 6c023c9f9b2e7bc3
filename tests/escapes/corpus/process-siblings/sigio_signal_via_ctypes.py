# category: process-siblings
# signal: victim
# expect: refused
# plain: as-nobody (the attack is on a process of the same unprivileged uid)
# tripwire: stops ctypes.dlopen
# source: F_SETOWN and O_ASYNC make the kernel signal another process on I/O, past a seccomp rule on kill()
import ctypes
import socket
libc = ctypes.CDLL(None, use_errno=True)
F_GETFL, F_SETFL, F_SETOWN, F_SETSIG, O_ASYNC = 3, 4, 8, 10, 0o20000
left, right = socket.socketpair()
fd = left.fileno()
libc.fcntl(fd, F_SETOWN, {VICTIM_PID})
libc.fcntl(fd, F_SETSIG, 9)
libc.fcntl(fd, F_SETFL, libc.fcntl(fd, F_GETFL, 0) | O_ASYNC)
right.send(b"x")
right.send(b"y")
