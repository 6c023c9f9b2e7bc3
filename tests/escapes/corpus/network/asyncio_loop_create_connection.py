# category: network
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: the running loop object exposes create_connection
import asyncio
loop = asyncio.get_running_loop()
await asyncio.wait_for(loop.create_connection(asyncio.Protocol, "127.0.0.1", {CANARY_PORT}), 2)
