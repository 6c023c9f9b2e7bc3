# category: network
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: the C module below socket.py
import _socket
connection = _socket.socket()
connection.connect(("127.0.0.1", {CANARY_PORT}))
