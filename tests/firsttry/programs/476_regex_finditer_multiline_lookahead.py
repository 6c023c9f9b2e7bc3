# description: Find slow and failing requests in the logs with finditer, MULTILINE anchors and a lookahead
# value: {"slow": [{"path": "/orders/o-1005", "ms": 250, "start": 352, "line": 6}, {"path": "/search?q=refund", "ms": 1200, "start": 786, "line": 12}], "with_amount": ["c3", "c3", "c6"], "bad": ["404", "500", "503"], "error_offsets": [230, 377]}
import re

text = await tools.fetch_logs()
slow = []
for m in re.finditer(r"^(?P<time>\S+ \S+) +(?P<level>\w+) +api +(?P<method>[A-Z]+) (?P<path>\S+) (?P<status>\d{3}) (?P<ms>\d+)ms", text, re.MULTILINE):
    if int(m["ms"]) >= 100:
        slow.append({"path": m["path"], "ms": int(m["ms"]), "start": m.start(), "line": text.count("\n", 0, m.start()) + 1})
# users whose line has an amount, found with a lookahead
with_amount = re.findall(r"(?m)^(?=.*amount=).*user=(\w+)$", text)
# first status code that is not 2xx, with a negative lookahead
bad = re.findall(r"\b(?!2\d\d)([1-5]\d\d)\b(?= \d+ms)", text)
ends = [m.end() for m in re.finditer(r"ERROR", text)][:2]
return {"slow": slow, "with_amount": with_amount, "bad": bad, "error_offsets": ends}
