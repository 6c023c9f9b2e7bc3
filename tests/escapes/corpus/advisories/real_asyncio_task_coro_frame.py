# category: advisories
# signal: marker
# expect: refused
# source: a real asyncio module handed to RestrictedPython (peer escape): current_task() leads to the coroutine frame
import asyncio
frame = asyncio.current_task().get_coro().cr_frame
frame.f_builtins["__import__"]("os").system("touch {MARKER_PATH}")
