# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: CVE-2023-37271 class: the frame of a generator expression, reached while it runs
gen = (gen.gi_frame.f_back.f_back for _ in [1])
frame = [x for x in gen][0]
while frame is not None:
    imp = frame.f_builtins.get("__import__")
    if imp is not None:
        try:
            imp("os").system("touch {MARKER_PATH}")
            break
        except Exception:
            pass
    frame = frame.f_back
