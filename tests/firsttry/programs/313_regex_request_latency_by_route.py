# description: Extract API requests from the logs and summarise latency and status classes per route
# value: {"routes": {"GET /orders/:id": {"n": 4, "median": 18.5, "max": 250}, "DELETE /orders/:id": {"n": 1, "median": 31, "max": 31}, "GET /customers/:id": {"n": 1, "median": 3, "max": 3}, "GET /products": {"n": 1, "median": 8, "max": 8}, "GET /search": {"n": 1, "median": 1200, "max": 1200}, "POST /tickets": {"n": 1, "median": 40, "max": 40}}, "classes": {"2xx": 6, "4xx": 1, "5xx": 2}, "queries": [{"query": "q=refund", "span": [588, 596], "groups": "c1"}], "order_ids": ["o-1001", "o-1002", "o-1005", "o-1009", "o-1010"], "sub": "2024-06-15 08:01:12 INFO  api    GET /orders/o-1001 200 12ms user=<c1>"}
# logs: ["route                   n    p50    max", "GET /orders/:id         4   18.5    250", "DELETE /orders/:id      1   31.0     31", "GET /customers/:id      1    3.0      3", "GET /products           1    8.0      8", "GET /search             1 1200.0   1200", "POST /tickets           1   40.0     40"]
import re
import statistics
from collections import defaultdict

REQ = re.compile(
    r"(?P<ts>\d\d:\d\d:\d\d) (?P<level>\w+)\s+api\s+(?P<method>GET|POST|PUT|DELETE) "
    r"(?P<path>/\S*?)(?:\?(?P<query>\S+))? (?P<status>\d{3}) (?P<ms>\d+)ms user=(?P<user>\w+)"
)
ROUTE = re.compile(r"/(?P<resource>[a-z]+)(?:/(?P<id>[\w-]+))?")

text = await tools.fetch_logs(service="api")
routes = defaultdict(list)
classes = defaultdict(int)
spans = []
for m in REQ.finditer(text):
    r = ROUTE.fullmatch(m["path"])
    key = f"{m['method']} /{r['resource']}" + ("/:id" if r["id"] else "")
    routes[key].append(int(m["ms"]))
    classes[m["status"][0] + "xx"] += 1
    if m["query"]:
        spans.append({"query": m["query"], "span": list(m.span("query")), "groups": m.groupdict()["user"]})

print(f"{'route':<22}{'n':>3}{'p50':>7}{'max':>7}")
summary = {}
for key in sorted(routes, key=lambda k: (-len(routes[k]), k)):
    ms = routes[key]
    summary[key] = {"n": len(ms), "median": statistics.median(ms), "max": max(ms)}
    print(f"{key:<22}{len(ms):>3}{statistics.median(ms):>7.1f}{max(ms):>7}")
ids = [m.group("id") for m in re.finditer(r"/orders/(?P<id>o-\d+)", text)]
return {"routes": summary, "classes": dict(sorted(classes.items())), "queries": spans, "order_ids": ids,
        "sub": re.sub(r"user=(?P<u>c\d)", r"user=<\g<u>>", text.splitlines()[0])}
