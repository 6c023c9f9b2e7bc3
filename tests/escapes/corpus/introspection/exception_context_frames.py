# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: __context__ of a chained exception carries a traceback of its own
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise ValueError("second")
except ValueError as error:
    frame = error.__context__.__traceback__.tb_frame
frame.f_builtins["__import__"]("os").system("touch {MARKER_PATH}")
