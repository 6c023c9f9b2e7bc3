# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: CVE-2023-37271 class: a running generator's gi_frame.f_back chain reaches host frames
def frames():
    frame = walker.gi_frame
    while frame is not None:
        yield frame
        frame = frame.f_back
walker = frames()
for frame in walker:
    imp = frame.f_builtins.get("__import__")
    if imp is not None:
        try:
            imp("os").system("touch {MARKER_PATH}")
            break
        except Exception:
            pass
