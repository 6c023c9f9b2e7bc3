# category: network
# signal: canary
# expect: refused
# source: the abstract Unix namespace needs no file at all, so no file permission applies
import socket
left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
left.sendto(b"escaped", "\0codemode-{IPC_KEY}")
