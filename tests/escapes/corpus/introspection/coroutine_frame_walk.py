# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ cr_frame
# source: a running coroutine's cr_frame chain reaches the event loop's frames
async def me():
    return running.cr_frame.f_back
running = me()
frame = await running
while frame is not None:
    imp = frame.f_builtins.get("__import__")
    if imp is not None:
        try:
            imp("os").system("touch {MARKER_PATH}")
            break
        except Exception:
            pass
    frame = frame.f_back
