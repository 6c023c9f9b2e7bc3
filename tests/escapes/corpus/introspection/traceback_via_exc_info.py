# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: sys.exc_info exposes the traceback without naming __traceback__
import sys
try:
    1 / 0
except ZeroDivisionError:
    frame = sys.exc_info()[2].tb_frame
frame.f_builtins["__import__"]("os").system("touch {MARKER_PATH}")
