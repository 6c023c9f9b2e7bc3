# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: CVE-2024-47532 class: AttributeError.obj returns the object behind a failed lookup
import re
try:
    re.no_such_attribute
except AttributeError as error:
    module = error.obj
module.enum.sys.modules["os"].system("touch {MARKER_PATH}")
