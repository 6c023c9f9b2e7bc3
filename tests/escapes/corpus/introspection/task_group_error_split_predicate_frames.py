# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: ExceptionGroup.split calls its predicate natively with every exception of the group a TaskGroup raised (the failed tasks' own); the predicate walks a leaf's traceback to a frame and its builtins
import asyncio
async def fail():
    raise ValueError("in a task")
found = []
def keep(error):
    if isinstance(error, BaseExceptionGroup):
        return False  # so that split asks about each exception in the group
    found.append(error.__traceback__.tb_frame)
    return True
try:
    async with asyncio.TaskGroup() as group:
        group.create_task(fail())
except* ValueError as caught:
    caught.split(keep)
found[0].f_builtins["__import__"]("os").system("touch {MARKER_PATH}")
return "done"
