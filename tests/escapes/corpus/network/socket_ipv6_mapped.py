# category: network
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: another address family reaching the same listener through a mapped address
import socket
connection = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
connection.connect(("::ffff:127.0.0.1", {CANARY_PORT}))
