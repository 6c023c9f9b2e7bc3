# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops import pathlib
# source: classic; pathlib creates files without naming open
import pathlib
pathlib.Path("{MARKER_PATH}").touch()
