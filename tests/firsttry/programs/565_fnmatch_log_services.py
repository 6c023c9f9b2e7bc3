# description: Match log request paths against shell-style route patterns with fnmatch
# value: {"hits": {"customers": 1, "orders": 5, "other": 1, "search": 1, "tickets": 1}, "regex": "(?s:.*\\.csv)\\Z"}
import fnmatch
from collections import Counter

text = await tools.fetch_logs(service="api")
routes = {"orders": "/orders/*", "customers": "/customers/*", "search": "/search*", "tickets": "/tickets"}
hits = Counter()
for line in text.splitlines():
    parts = line.split()
    path = parts[5]
    for name, pattern in routes.items():
        if fnmatch.fnmatch(path, pattern):
            hits[name] += 1
            break
    else:
        hits["other"] += 1
translated = fnmatch.translate("*.csv")
return {"hits": dict(sorted(hits.items())), "regex": translated}
