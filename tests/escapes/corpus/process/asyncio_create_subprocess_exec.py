# category: process
# signal: marker
# expect: refused
# tripwire: stops subprocess.Popen
# source: a real asyncio module hands out subprocess creation (peer escape)
import asyncio
proc = await asyncio.create_subprocess_exec("touch", "{MARKER_PATH}")
await proc.wait()
