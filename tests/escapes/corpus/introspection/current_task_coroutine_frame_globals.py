# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ cr_frame
# source: asyncio.current_task() inside a task the program started, asked for its coroutine as a real Task answers (the name assembled at run time), and the running coroutine's frame walked to its builtins
import asyncio
async def inner():
    task = asyncio.current_task()
    coro = getattr(task, "get_" + "coro")()
    coro.cr_frame.f_builtins["__import__"]("os").system("touch {MARKER_PATH}")
    return "done"
return await asyncio.create_task(inner())
