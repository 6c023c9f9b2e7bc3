# category: network
# signal: canary
# expect: refused
# tripwire: stops ctypes.dlopen
# source: socket()/connect() straight from libc through ctypes
import ctypes
import struct
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.socket(2, 1, 0)
address = struct.pack("!HH4s8x", 2, {CANARY_PORT}, bytes([127, 0, 0, 1]))
address = struct.pack("=H", 2) + address[2:]
libc.connect(fd, ctypes.c_char_p(address), len(address))
