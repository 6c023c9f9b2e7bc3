# category: filesystem-write
# signal: marker
# expect: refused
# source: zipfile opens its archive itself
import zipfile
zipfile.ZipFile("{MARKER_PATH}", "w").close()
