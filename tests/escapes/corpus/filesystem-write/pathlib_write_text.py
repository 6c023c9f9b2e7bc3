# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops import pathlib
# source: classic; pathlib writer
from pathlib import Path
Path("{MARKER_PATH}").write_text("escaped")
