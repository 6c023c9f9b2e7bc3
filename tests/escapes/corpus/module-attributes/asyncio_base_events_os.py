# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real asyncio module: its submodules import os (peer escape)
import asyncio
asyncio.base_events.os.system("touch {MARKER_PATH}")
