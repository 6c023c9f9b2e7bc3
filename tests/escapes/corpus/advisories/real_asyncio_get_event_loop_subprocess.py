# category: advisories
# signal: marker
# expect: refused
# tripwire: stops open
# source: a real asyncio module handed to RestrictedPython (peer escape): the event loop spawns processes
import asyncio
loop = asyncio.get_event_loop()
transport, _ = await loop.subprocess_shell(asyncio.SubprocessProtocol, "touch {MARKER_PATH}")
while transport.get_returncode() is None:
    await asyncio.sleep(0.01)
