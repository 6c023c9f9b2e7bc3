# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops open
# source: a logging handler opens its file on construction
import logging
logging.FileHandler("{MARKER_PATH}").close()
