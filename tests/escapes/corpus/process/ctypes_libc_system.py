# category: process
# signal: marker
# expect: refused
# source: calling libc directly through ctypes
import ctypes
ctypes.CDLL(None).system(b"touch {MARKER_PATH}")
