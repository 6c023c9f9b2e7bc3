# category: filesystem-write
# signal: secret
# expect: refused
# tripwire: stops os.remove
# source: deleting a file the program does not own
import os
os.unlink("{SECRET_PATH}")
