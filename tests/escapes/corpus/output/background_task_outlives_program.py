# category: output
# signal: liveness handler
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (the runtime's and the host's output checks)
# source: a task that swallows cancellation and keeps calling tools after the program returned
import asyncio
async def stubborn():
    while True:
        try:
            await tools.echo(value="late")
            await asyncio.sleep(0)
        except BaseException:
            pass
asyncio.create_task(stubborn())
return "returned"
