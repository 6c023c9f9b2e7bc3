# category: network
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: an allowed Unix socket pair of datagram type reaches any Unix socket by address through sendto(), without connect()
import socket
left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
left.sendto(b"escaped", "{UNIX_SOCKET}")
