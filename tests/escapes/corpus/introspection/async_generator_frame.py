# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ ag_frame
# source: RestrictedPython 8.5 class: ag_frame of an asynchronous generator
async def agen():
    yield agen_obj.ag_frame.f_back
agen_obj = agen()
frame = await agen_obj.__anext__()
while frame is not None:
    imp = frame.f_builtins.get("__import__")
    if imp is not None:
        try:
            imp("os").system("touch {MARKER_PATH}")
            break
        except Exception:
            pass
    frame = frame.f_back
