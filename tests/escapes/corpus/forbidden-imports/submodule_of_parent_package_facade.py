# category: forbidden-imports
# signal: canary
# expect: refused
# tripwire: stops import urllib.request
# source: variant of import_os_path: the parent package bound by an allowed dotted import (urllib for urllib.parse) asked for a sibling submodule that opens connections
import urllib.parse
try:
    opener = urllib.request
except AttributeError:
    from urllib import request as opener
try:
    opener.urlopen("http://127.0.0.1:{CANARY_PORT}/", timeout=2).read()
except Exception:
    pass
