# category: state
# signal: state
# expect: refused
# tripwire: harmless (a fresh child per run: the changed state dies with it)
# source: patching a shared module so that the next program sees the patch
import json
json.dumps = lambda *args, **kwargs: "poisoned"
