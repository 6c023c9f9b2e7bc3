# category: filesystem-write
# signal: marker
# expect: refused
# source: classic; pathlib writer
from pathlib import Path
Path("{MARKER_PATH}").write_text("escaped")
