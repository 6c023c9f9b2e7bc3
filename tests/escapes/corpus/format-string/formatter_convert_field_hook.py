# category: format-string
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: GHSA-hp3v-5vw7-fx9w class: convert_field also receives the walked object
import string
class Walker(string.Formatter):
    def convert_field(self, value, conversion):
        value("os").system("touch {MARKER_PATH}")
        return ""
Walker().vformat("{0.__self__.__import__!r}", [len], {})
