# category: exhaustion
# signal: limit
# kinds: exception worker-exit
# applies: all os
# plain: skip (pins kernel memory that no address-space limit counts)
# tripwire: stops ctypes.dlopen
# source: mmap() at chosen addresses: one page every 2 GiB costs 4 KiB of address space but 8 KiB of unswappable page tables (a PTE table and a PMD table of its own), so RLIMIT_AS lets a process pin kernel memory larger than its whole limit
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = (
    ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long
)
PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, MAP_FIXED_NOREPLACE = 3, 0x22, 0x100000
PAGE, STRIDE = 4096, 2 << 30
page_tables = 0
for slot in range(1, 40001):
    wanted = slot * STRIDE
    got = libc.mmap(wanted, PAGE, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0)
    if got != wanted:
        raise OSError(ctypes.get_errno(), "no mapping at the chosen address")
    ctypes.c_char.from_address(got).value
    page_tables += 2 * PAGE
return page_tables
