# category: filesystem-write
# signal: secret
# expect: refused
# tripwire: stops os.chmod
# source: widening a root-only file's mode
import os
os.chmod("{SECRET_PATH}", 0o666)
