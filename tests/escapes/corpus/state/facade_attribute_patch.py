# category: state
# signal: state
# expect: refused
# source: patching a shared module so that the next program sees the patch
import json
json.dumps = lambda *args, **kwargs: "poisoned"
