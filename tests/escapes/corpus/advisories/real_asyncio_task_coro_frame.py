# category: advisories
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ cr_frame
# source: a real asyncio module handed to RestrictedPython (peer escape): current_task() leads to the coroutine frame
import asyncio
frame = asyncio.current_task().get_coro().cr_frame
frame.f_builtins["__import__"]("os").system("touch {MARKER_PATH}")
