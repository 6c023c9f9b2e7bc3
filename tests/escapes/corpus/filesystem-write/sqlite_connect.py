# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops import sqlite3
# source: a C extension that opens files itself, below the Python io layer
import sqlite3
connection = sqlite3.connect("{MARKER_PATH}")
connection.execute("create table t (x)")
connection.close()
