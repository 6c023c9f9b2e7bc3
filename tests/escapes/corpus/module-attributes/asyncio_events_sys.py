# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real asyncio module: events imports sys (peer escape)
import asyncio
asyncio.events.sys.modules["os"].system("touch {MARKER_PATH}")
