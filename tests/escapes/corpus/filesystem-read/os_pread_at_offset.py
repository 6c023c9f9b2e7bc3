# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: variant of os_open_read: the content read with pread64 at an explicit offset, a different read call than read
import os
fd = os.open("{SECRET_PATH}", os.O_RDONLY)
return os.pread(fd, 4096, 0).decode()
