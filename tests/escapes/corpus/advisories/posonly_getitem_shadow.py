# category: advisories
# signal: marker
# expect: compile
# tripwire: stops os.system
# source: GHSA-ffg3-p8fm-mjx2 (CVE-2026-55830): the item guard shadowed the same way
def pick(mapping, key, _getitem_=dict.get, /):
    return mapping[key]
b = pick(len.__self__.__dict__, "__import__")
b("os").system("touch {MARKER_PATH}")
