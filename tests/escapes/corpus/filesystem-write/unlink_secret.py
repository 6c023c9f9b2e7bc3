# category: filesystem-write
# signal: secret
# expect: refused
# source: deleting a file the program does not own
import os
os.unlink("{SECRET_PATH}")
