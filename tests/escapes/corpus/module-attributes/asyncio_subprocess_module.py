# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops subprocess.Popen
# source: a real asyncio module exposes its subprocess submodule (peer escape)
import asyncio
asyncio.subprocess.subprocess.run(["touch", "{MARKER_PATH}"])
