# category: filesystem-write
# signal: marker
# expect: refused
# plain: skip (it rewrites the table of the child's own tripwire, which a plain interpreter does not have)
# tripwire: misses (ctypes is loaded in every child for its own prctl calls, so importing it raises no event, and indexing a pointer out of bounds raises none: the hook itself can be blinded)
# source: ctypes, already loaded in the zygote, gives raw memory with no audit event: indexing a ctypes.pointer() out of bounds reads and writes any address (id() gives objects' addresses); flipping the cached hash of one entry of the tripwire's own FORBIDDEN_EVENTS frozenset (the object bound in its closure) hides "open" from it, then open() writes a file
import ctypes, sys
cell = ctypes.c_long(0)
mem = ctypes.pointer(cell)
base = id(cell) + 80
if mem[-9] != id(type(cell)):
    raise RuntimeError("unexpected ctypes object layout")
def read(addr):
    return mem[(addr - base) // 8]
def write(addr, value):
    mem[(addr - base) // 8] = value
events = sys.modules["sandbox._tripwire"].FORBIDDEN_EVENTS
mask, table = read(id(events) + 32), read(id(events) + 40)
for slot in range(mask + 1):
    if read(table + 16 * slot) == id("open"):
        write(table + 16 * slot + 8, read(table + 16 * slot + 8) ^ 1)
with open("{MARKER_PATH}", "w") as marker:
    marker.write("x")
