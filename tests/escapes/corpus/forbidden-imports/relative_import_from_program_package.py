# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: harmless (the program has no parent package, so the import fails)
# plain: skip (without a parent package the import fails)
# source: variant of import_as_allowed_name: a relative import, resolved against whatever package the program's globals name
from . import os
os.system("touch {MARKER_PATH}")
