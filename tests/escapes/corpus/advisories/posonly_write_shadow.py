# category: advisories
# signal: state
# expect: compile
# tripwire: harmless (a fresh child per run: the patched module dies with it)
# source: GHSA-ffg3-p8fm-mjx2 (CVE-2026-55830): the write guard shadowed to patch a shared module
import json
def patch(module, _write_=lambda obj: obj, /):
    module.dumps = lambda *args, **kwargs: "poisoned"
patch(json)
