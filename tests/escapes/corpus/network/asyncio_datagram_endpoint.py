# category: network
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: variant of asyncio_loop_create_connection: a UDP endpoint through the loop, sending to the canary's abstract Unix datagram socket
import asyncio, socket
loop = asyncio.get_running_loop()
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
transport, _ = await loop.create_datagram_endpoint(asyncio.DatagramProtocol, sock=sock)
transport.sendto(b"x", "\0codemode-{IPC_KEY}")
await asyncio.sleep(0.1)
