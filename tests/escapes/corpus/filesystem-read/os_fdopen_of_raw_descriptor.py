# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: variant of os_open_read: os.fdopen wraps the raw descriptor in a text file object, a different reader than os.read
import os
return os.fdopen(os.open("{SECRET_PATH}", os.O_RDONLY)).read()
