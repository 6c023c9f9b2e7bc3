# description: Parse the API log into dataclasses and find the slowest requests
# value: {"parsed": 9, "slowest": ["/search?q=refund 1200ms", "/orders/o-1005 250ms", "/tickets 40ms"], "server_errors": [["c2", 500], ["c1", 503]]}
import re
from dataclasses import dataclass

LINE = re.compile(
    r"^(?P<ts>\S+ \S+) (?P<level>[A-Z]+)\s+api\s+(?P<method>GET|POST|PUT|DELETE) (?P<path>\S+) "
    r"(?P<status>\d{3}) (?P<ms>\d+)ms user=(?P<user>\w+)$"
)

@dataclass(order=True)
class Request:
    ms: int
    path: str
    status: int
    user: str

text = await tools.fetch_logs(service="api")
requests = []
for line in text.splitlines():
    if m := LINE.match(line):
        requests.append(Request(int(m["ms"]), m["path"], int(m.group("status")), m["user"]))

slowest = sorted(requests, reverse=True)[:3]
errors = [r for r in requests if r.status >= 500]
return {
    "parsed": len(requests),
    "slowest": [f"{r.path} {r.ms}ms" for r in slowest],
    "server_errors": [(r.user, r.status) for r in errors],
}
