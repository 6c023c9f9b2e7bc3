# category: network
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: classic; a TCP connection to a listener on the loopback
import socket
connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
connection.connect(("127.0.0.1", {CANARY_PORT}))
