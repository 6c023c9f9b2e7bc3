# category: forbidden-imports
# signal: leak
# leak: site-packages|python3\.11|<module 'builtins'
# expect: refused
# tripwire: misses (no audited event on its route: _strptime is already loaded, so the import raises no event, and module attribute reads are not audited)
# source: as strptime_internal_import_reaches_sys: `import _strptime` gets the real module from the importer's internal-import exception; with all three layers on, the program reads what raises no audit event: the real sys and builtins modules, the host's sys.path and executable
import _strptime
sys = _strptime.locale.sys
return str([sys.path, sys.executable, repr(sys.modules["builtins"])])
