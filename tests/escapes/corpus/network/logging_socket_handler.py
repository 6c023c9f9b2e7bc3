# category: network
# signal: canary
# expect: refused
# tripwire: stops import logging.handlers
# source: variant of socket_connect: logging.handlers.SocketHandler opens the TCP connection itself on the first record
import logging, logging.handlers
handler = logging.handlers.SocketHandler("127.0.0.1", {CANARY_PORT})
logger = logging.getLogger("x")
logger.addHandler(handler)
logger.error("hello")
handler.close()
