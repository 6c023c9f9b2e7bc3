# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: the importer hands the real _strptime module to whoever asks for it by that name (its one internal import, meant for datetime.strptime's C caller), and the compiler accepts `import _strptime` since rule 6 made `_x` names the program's own; the real module's attributes are real modules (locale.sys)
import _strptime
_strptime.locale.sys.modules["os"].system("touch {MARKER_PATH}")
return "done"
