# category: network
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: sendmsg() with an explicit address on a socket from an allowed socket pair
import socket
left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
left.sendmsg([b"escaped"], [], 0, "{UNIX_SOCKET}")
