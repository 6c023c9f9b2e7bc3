# category: process
# signal: marker
# expect: refused
# tripwire: stops ctypes.dlopen
# source: calling libc directly through ctypes
import ctypes
ctypes.CDLL(None).system(b"touch {MARKER_PATH}")
