# category: filesystem-write
# signal: secret
# expect: refused
# tripwire: stops os.truncate
# source: destroying a file is harm even without reading it
import os
os.truncate("{SECRET_PATH}", 0)
