# category: process
# signal: marker
# expect: refused
# tripwire: stops open
# source: the running loop object exposes subprocess creation
import asyncio
loop = asyncio.get_running_loop()
transport, _ = await loop.subprocess_exec(asyncio.SubprocessProtocol, "touch", "{MARKER_PATH}")
while transport.get_returncode() is None:
    await asyncio.sleep(0.01)
