# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops import zipfile
# source: zipfile opens its archive itself
import zipfile
zipfile.ZipFile("{MARKER_PATH}", "w").close()
