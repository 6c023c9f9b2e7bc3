# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: variant of import_os_path: a submodule of an allowed module (json.decoder, json.scanner) imported by dotted name and by from-import, whose globals are the real modules
try:
    import json.decoder
    decoder = json.decoder
except ImportError:
    from json import decoder
decoder.re.enum.sys.modules["os"].system("touch {MARKER_PATH}")
