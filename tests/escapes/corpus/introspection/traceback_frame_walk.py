# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: classic; an exception's __traceback__.tb_frame and then f_back
try:
    1 / 0
except ZeroDivisionError as error:
    frame = error.__traceback__.tb_frame
while frame is not None:
    imp = frame.f_builtins.get("__import__")
    if imp is not None:
        try:
            imp("os").system("touch {MARKER_PATH}")
            break
        except Exception:
            pass
    frame = frame.f_back
