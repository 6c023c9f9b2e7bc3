# description: Digest the application log with named-group regexes, substitutions and splits
# value: {"levels": {"INFO": 6, "WARN": 2, "ERROR": 4}, "slow": ["POST /tickets took 40 ms", "GET /orders/o-1005 took 250 ms", "GET /search?q=refund took 1200 ms"], "masked": "2024-06-15 08:01:12 INFO  api    GET /orders/o-1001 200 12ms user=c*", "renamed": "15/06/2024", "amounts": [45.0, 45.0, 149.0], "pairs": [["user", "c1"], ["user", "c1"], ["user", "c2"], ["amount", "45"]], "parts": ["GET", "  ", "/x", " ", "200"], "paths": ["/customers/c9", "/orders/o-1001", "/orders/o-1002", "/orders/o-1005", "/orders/o-1009", "/orders/o-1010", "/products", "/search", "/tickets"], "span": [20, 24], "first_groups": ["2024-06-15", "08:01:12", "INFO"], "errors": 4, "escaped": "amount=45\\.00\\ \\(x\\)", "fullmatch": [true, false], "ci": 4, "subn": 9}
# logs: ["12 records, 3 slow"]
import re

text = await tools.fetch_logs()
LINE = re.compile(
    r"^(?P<date>\d{4}-\d\d-\d\d) (?P<time>[\d:]{8}) (?P<level>[A-Z]+)\s+(?P<service>\w+)\s+(?P<rest>.*)$",
    re.MULTILINE,
)
REQUEST = re.compile(r"(?P<method>GET|POST|DELETE) (?P<path>\S+) (?P<status>\d{3}) (?P<ms>\d+)ms")

records = [m.groupdict() for m in LINE.finditer(text)]
slow = []
for r in records:
    if (m := REQUEST.search(r["rest"])) and int(m["ms"]) >= 40:
        slow.append(m.expand(r"\g<method> \g<path> took \g<ms> ms"))

masked = re.sub(r"user=(c)(\d+)", lambda m: f"user={m[1]}{'*' * len(m[2])}", text.splitlines()[0])
renamed = re.sub(r"(?P<d>\d{4})-(?P<m>\d\d)-(?P<day>\d\d)", r"\g<day>/\g<m>/\g<d>", records[0]["date"])
amounts = [float(a) for a in re.findall(r"amount=(\d+\.\d\d)", text)]
pairs = re.findall(r"(\w+)=(\w+)", text)
parts = re.split(r"(\s+)", "GET  /x 200")
paths = sorted({m.group("path").split("?")[0] for m in REQUEST.finditer(text)})
levels = {}
for r in records:
    levels[r["level"]] = levels.get(r["level"], 0) + 1
first = LINE.search(text)
errors = re.findall(r"^.*\bERROR\b.*$", text, flags=re.M)
escaped = re.escape("amount=45.00 (x)")
ok = bool(re.fullmatch(r"o-\d{4}", "o-1001")), bool(re.fullmatch(r"o-\d{4}", "o-10011"))
ci = re.findall(r"error", text, flags=re.IGNORECASE)
print(f"{len(records)} records, {len(slow)} slow")
return {
    "levels": levels,
    "slow": slow,
    "masked": masked,
    "renamed": renamed,
    "amounts": amounts,
    "pairs": pairs[:4],
    "parts": parts,
    "paths": paths,
    "span": list(first.span("level")),
    "first_groups": list(first.groups()[:3]),
    "errors": len(errors),
    "escaped": escaped,
    "fullmatch": list(ok),
    "ci": len(ci),
    "subn": re.subn(r"\d+ms", "<t>", text)[1],
}
