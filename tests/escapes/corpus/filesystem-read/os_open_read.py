# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: classic; raw file descriptors through os
import os
fd = os.open("{SECRET_PATH}", os.O_RDONLY)
return os.read(fd, 4096).decode()
