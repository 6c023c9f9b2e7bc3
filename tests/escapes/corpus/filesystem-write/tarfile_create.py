# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops import tarfile
# source: variant of zipfile_create: tarfile creates the archive
import tarfile
tarfile.open("{MARKER_PATH}", "w").close()
