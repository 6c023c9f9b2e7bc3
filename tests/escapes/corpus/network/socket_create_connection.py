# category: network
# signal: canary
# expect: refused
# tripwire: stops socket.getaddrinfo
# source: classic; the helper around connect
import socket
socket.create_connection(("127.0.0.1", {CANARY_PORT}), timeout=2)
