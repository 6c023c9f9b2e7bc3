# category: process
# signal: marker
# expect: refused
# source: a real asyncio module hands out subprocess creation (peer escape)
import asyncio
proc = await asyncio.create_subprocess_exec("touch", "{MARKER_PATH}")
await proc.wait()
