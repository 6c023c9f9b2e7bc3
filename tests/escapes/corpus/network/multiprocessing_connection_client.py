# category: network
# signal: canary
# expect: refused
# tripwire: stops import multiprocessing.connection
# source: a less obvious socket user in the standard library
from multiprocessing.connection import Client
Client(("127.0.0.1", {CANARY_PORT}))
