# category: format-string
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: GHSA-hp3v-5vw7-fx9w (CVE-2026-76825): string.Formatter.get_field returns the walked object itself
import string
imp = string.Formatter().get_field("0.__self__.__import__", [len], {})[0]
imp("os").system("touch {MARKER_PATH}")
