# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops import mmap
# source: reading through a memory map instead of read()
import mmap
import os
fd = os.open("{SECRET_PATH}", os.O_RDONLY)
return mmap.mmap(fd, 0, prot=mmap.PROT_READ)[:].decode()
