# description: Parse API log lines with a verbose named-group regex and redact user ids with re.sub and a function
# value: {"parsed": 12, "slow": [["/orders/o-1005", 250], ["/search?q=refund", 1200]], "errors": [["billing", null], ["api", "500"], ["billing", null], ["api", "503"]], "redacted_first": "2024-06-15 08:01:12 INFO  api    GET /orders/o-1001 200 12ms user=u1", "pseudonyms": {"c1": "u1", "c2": "u2", "c3": "u3", "c4": "u4", "c5": "u5", "c6": "u6"}, "amounts": [45.0, 45.0, 149.0], "parts": ["a", "b", "c", "d"], "ids": ["o-1001", "o-1002", "o-1005", "o-1009", "o-1010"], "not_get": ["08:03:44", "08:05:10", "08:10:02", "08:12:45", "08:16:31"], "swapped": "15/06/2024", "subn": ["a#b##", 3], "escaped": "a\\.b\\*c"}
import re

LINE = re.compile(
    r"""
    ^(?P<date>\d{4}-\d{2}-\d{2})\s+(?P<time>\d{2}:\d{2}:\d{2})\s+
    (?P<level>[A-Z]+)\s+(?P<service>\w+)\s+
    (?:(?P<method>GET|POST|PUT|DELETE)\s+(?P<path>\S+)\s+(?P<status>\d{3})\s+(?P<ms>\d+)ms)?
    .*?user=(?P<user>c\d+)$
    """,
    re.VERBOSE,
)
text = await tools.fetch_logs()
parsed = [m.groupdict() for line in text.splitlines() if (m := LINE.match(line))]
slow = [(p["path"], int(p["ms"])) for p in parsed if p["ms"] and int(p["ms"]) >= 100]
errors = [p for p in parsed if p["level"] == "ERROR"]

pseudonyms = {}


def redact(m):
    user = m.group("user")
    pseudonyms.setdefault(user, f"u{len(pseudonyms) + 1}")
    return f"user={pseudonyms[user]}"


redacted = re.sub(r"user=(?P<user>c\d+)", redact, text)
amounts = [float(a) for a in re.findall(r"amount=(\d+\.\d{2})", text)]
parts = re.split(r"\s*[;,]\s*", "a, b;c ,d")
ids = re.findall(r"o-\d+(?=\s+\d{3}\b)", text)
not_get = re.findall(r"^(?!.*\bGET\b).*?(\d{2}:\d{2}:\d{2})", text, flags=re.M)
swapped = re.sub(r"(\d{4})-(\d{2})-(\d{2})", r"\3/\2/\1", "2024-06-15")
n_subs = re.subn(r"\d", "#", "a1b22")
return {
    "parsed": len(parsed),
    "slow": slow,
    "errors": [(e["service"], e["status"]) for e in errors],
    "redacted_first": redacted.splitlines()[0],
    "pseudonyms": pseudonyms,
    "amounts": amounts,
    "parts": parts,
    "ids": ids,
    "not_get": not_get,
    "swapped": swapped,
    "subn": n_subs,
    "escaped": re.escape("a.b*c"),
}
