# category: network
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: a real asyncio module opens network connections (peer escape)
import asyncio
await asyncio.wait_for(asyncio.open_connection("127.0.0.1", {CANARY_PORT}), 2)
