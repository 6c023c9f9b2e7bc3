# category: advisories
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real asyncio module handed to RestrictedPython (peer escape): unix_events imports os
import asyncio
asyncio.unix_events.os.system("touch {MARKER_PATH}")
