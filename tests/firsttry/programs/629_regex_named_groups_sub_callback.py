# description: Parse the application log with named groups, finditer and a sub callback that masks users
# value: {"by_level": {"INFO": 6, "WARN": 2, "ERROR": 4}, "slow": [["08:07:59", 250, "api"], ["08:20:00", 1200, "api"]], "masked": "2024-06-15 08:01:12 INFO  api    GET /orders/o-1001 200 12ms user=c*", "amounts": [45.0, 45.0, 149.0], "span": [20, 24], "split": ["a", "b", "c", "d"], "subn": 4}
import re

text = await tools.fetch_logs()
LINE = re.compile(
    r"""
    ^(?P<date>\d{4}-\d{2}-\d{2})\s(?P<time>[\d:]{8})\s+
    (?P<level>[A-Z]+)\s+(?P<service>\w+)\s+
    (?P<rest>.*?)\s
    user=(?P<user>c\d+)$
    """,
    re.VERBOSE | re.MULTILINE,
)
by_level = {}
slow = []
for m in LINE.finditer(text):
    by_level[m["level"]] = by_level.get(m["level"], 0) + 1
    if (ms := re.search(r"(?<=\s)(\d+)ms\b", m.group("rest"))) and int(ms[1]) >= 100:
        slow.append({"time": m["time"], "ms": int(ms.group(1)), **m.groupdict("")} | {"rest": None})

def mask(m: re.Match) -> str:
    return f"user={m.group(1)[0]}{'*' * (len(m.group(1)) - 1)}"

masked = re.sub(r"user=(\w+)", mask, text.splitlines()[0])
amounts = [float(a) for a in re.findall(r"amount=(\d+\.\d{2})", text)]
first = LINE.search(text)
return {
    "by_level": by_level,
    "slow": [(s["time"], s["ms"], s["service"]) for s in slow],
    "masked": masked,
    "amounts": amounts,
    "span": list(first.span("level")),
    "split": re.split(r"\s*[,;]\s*", "a, b;c ,d"),
    "subn": re.subn(r"\d", "#", "o-1001")[1],
}
