# category: exhaustion
# signal: limit
# expect: refused
# kinds: exception worker-exit
# applies: all os
# plain: skip (pins physical memory that no address-space limit counts)
# tripwire: stops ctypes.dlopen
# source: madvise(MADV_HUGEPAGE) on a 2 MiB-aligned anonymous region makes its first touch allocate a whole transparent huge page; unmapping all of it but one 4 KiB page leaves the 2 MiB page allocated (queued for a deferred split that runs only under memory pressure) and invisible in the process's RSS, so each 4 KiB of address space pins 2 MiB of RAM (512 times more): 192 pages pin 384 MiB, and a process under any RLIMIT_AS can go on until its CPU time or the map count ends it
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.syscall.argtypes = (ctypes.c_long,) * 6
SYS_MMAP, SYS_MUNMAP, SYS_MADVISE = 9, 11, 28
PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, MADV_HUGEPAGE = 3, 0x22, 14
PAGE, HUGE = 4096, 2 << 20
pinned = 0
for _ in range(192):
    region = libc.syscall(SYS_MMAP, 0, 2 * HUGE, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0)
    if region < 0:
        raise OSError(ctypes.get_errno(), "mmap")
    huge = (region + HUGE - 1) & ~(HUGE - 1)
    if libc.syscall(SYS_MADVISE, huge, HUGE, MADV_HUGEPAGE, 0, 0, 0) < 0:
        raise OSError(ctypes.get_errno(), "madvise(MADV_HUGEPAGE)")
    ctypes.c_char.from_address(huge).value = b"x"
    if huge > region:
        libc.syscall(SYS_MUNMAP, region, huge - region, 0, 0, 0, 0)
    libc.syscall(SYS_MUNMAP, huge + PAGE, region + 2 * HUGE - huge - PAGE, 0, 0, 0, 0)
    pinned += HUGE
return pinned
