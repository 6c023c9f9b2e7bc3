# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops import dbm
# source: dbm creates its database file itself
import dbm
dbm.open("{MARKER_PATH}", "c").close()
