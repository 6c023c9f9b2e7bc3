# category: introspection
# signal: marker
# plain: skip (needs the sandbox's tools binding)
# expect: refused
# tripwire: harmless (a tool call object has no frame to reach)
# source: the awaitable returned by a tool call may be a coroutine with a frame
pending = tools.echo(value=1)
frame = getattr(pending, "cr_frame", None) or getattr(pending, "gi_frame", None)
await pending
while frame is not None:
    imp = frame.f_builtins.get("__import__")
    if imp is not None:
        imp("os").system("touch {MARKER_PATH}")
        break
    frame = frame.f_back
