# category: process
# signal: marker
# expect: refused
# tripwire: stops subprocess.Popen
# source: a real asyncio module hands out a shell (peer escape)
import asyncio
proc = await asyncio.create_subprocess_shell("touch {MARKER_PATH}")
await proc.wait()
