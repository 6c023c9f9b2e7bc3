# category: network
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: the abstract Unix namespace needs no file at all, so no file permission applies
import socket
left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
left.sendto(b"escaped", "\0codemode-{IPC_KEY}")
