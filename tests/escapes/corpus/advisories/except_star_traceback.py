# category: advisories
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: CVE-2025-22153: try/except* handed out an exception group whose traceback leads to frames
try:
    raise ExceptionGroup("group", [ValueError("inner")])
except* ValueError as group:
    frame = group.__traceback__.tb_frame
    frame.f_builtins["__import__"]("os").system("touch {MARKER_PATH}")
