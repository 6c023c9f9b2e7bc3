# category: advisories
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: CVE-2024-47532: AttributeError.obj from a failed lookup on the string module
import string
try:
    string.no_such_attribute
except AttributeError as error:
    module = error.obj
module.Formatter().get_field("0.__self__.__import__", [len], {})[0]("os").system("touch {MARKER_PATH}")
