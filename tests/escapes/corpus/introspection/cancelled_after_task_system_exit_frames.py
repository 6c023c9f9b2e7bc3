# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: a SystemExit from a task of the program's ends the run with its main coroutine suspended; closing the run cancels it, and the main coroutine, in its handler of that cancellation, walks the cancellation's traceback to a frame and its builtins
import asyncio
async def end():
    raise SystemExit("the end")
asyncio.create_task(end())
try:
    await asyncio.Event().wait()
except asyncio.CancelledError as cancelled:
    frame = cancelled.__traceback__.tb_frame
    frame.f_builtins["__import__"]("os").system("touch {MARKER_PATH}")
    raise
