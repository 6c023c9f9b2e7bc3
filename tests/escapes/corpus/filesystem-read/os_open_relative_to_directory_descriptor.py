# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: variant of os_open_read: the file opened relative to a descriptor of its directory (dir_fd), a second open call the filter must refuse too
import os
directory = os.open(os.path.dirname("{SECRET_PATH}"), os.O_RDONLY | os.O_DIRECTORY)
fd = os.open(os.path.basename("{SECRET_PATH}"), os.O_RDONLY, dir_fd=directory)
return os.read(fd, 4096).decode()
