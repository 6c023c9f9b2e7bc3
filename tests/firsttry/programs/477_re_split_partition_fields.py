# description: Split log lines into fields with re.split, maxsplit and str.partition/rpartition
# value: {"rows": [{"date": "2024-06-15", "time": "08:01:12", "level": "INFO", "service": "api", "message": "GET /orders/o-1001 200 12ms", "user": "c1"}, {"date": "2024-06-15", "time": "08:01:15", "level": "INFO", "service": "api", "message": "GET /orders/o-1002 200 15ms", "user": "c1"}, {"date": "2024-06-15", "time": "08:02:01", "level": "WARN", "service": "api", "message": "GET /customers/c9 404 3ms", "user": "c2"}], "tokens": ["GET ", "/", "search", "?", "q", "=", "refund 503 1200ms"], "no_sep": ["no separator here", "", ""], "pieces": ["a", "b", "c ", "d"], "users": ["c1", "c2", "c3", "c4", "c5", "c6"]}
import re

text = await tools.fetch_logs()
rows = []
for line in text.strip().splitlines():
    date, _, rest = line.partition(" ")
    head, sep, user = rest.rpartition(" user=")
    parts = re.split(r"\s+", head, maxsplit=3)
    rows.append({"date": date, "time": parts[0], "level": parts[1], "service": parts[2],
                 "message": parts[3], "user": user if sep else None})
tokens = re.split(r"([/?=])", rows[-1]["message"])
no_sep = "no separator here".partition(":")
pieces = re.split(r"[,;]\s*", "a, b;c ;d")
return {"rows": rows[:3], "tokens": tokens, "no_sep": list(no_sep), "pieces": pieces,
        "users": sorted({r["user"] for r in rows})}
