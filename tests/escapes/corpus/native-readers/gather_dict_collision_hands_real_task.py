# category: native-readers
# signal: leak
# leak: real task \w+ cancelling=\d
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a real asyncio Task, a runtime object the program must not hold, judged with the language layer on)
# source: the façade's gather hands asyncio.gather the real Task behind a ProgramTask next to the program's own awaitables, and asyncio.gather keys its arg_to_fut dict by them; a program object whose __hash__ equals the real Task's pointer hash (its address, found by freeing blocks of the Task's size and reading their id()) is compared with it, and its __eq__ receives the real Task (the shield refuses only hidden classes)
import asyncio

async def work():
    await asyncio.sleep(0.05)
    return "done"

caught = []

class Probe:
    def __init__(self, h):
        self.h = h
    def __hash__(self):
        return self.h
    def __eq__(self, other):
        if type(other) is not Probe:
            caught.append(other)
        return False
    def __await__(self):
        return iter(())

blocks = [bytes(150) for _ in range(64)]
addresses = [id(b) for b in blocks]
del blocks
wrapped = asyncio.create_task(work())
hashes = set()
for address in addresses:
    for delta in range(-4096, 4097, 16):
        hashes.add((address + delta) >> 4)
probes = [Probe(h) for h in hashes]
await asyncio.gather(wrapped, *probes)
await wrapped
if not caught:
    raise RuntimeError("no real task reached the program")
task = caught[0]
return f"real task {type(task).__name__} cancelling={task.cancelling()}"
