# description: Draw a text sparkline of hourly activity and a histogram of purchase amounts
# value: {"spark": "\u2584\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588", "rows": ["    <50 | #### |  4", "  50-99 | ###  |  3", "100-149 | #### |  4", "   150+ | ###  |  3"], "peak_hour": 1}
# logs: ["hours 00-23: \u2584\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588", "    <50 | #### |  4", "  50-99 | ###  |  3", "100-149 | #### |  4", "   150+ | ###  |  3", " purchase amounts "]
import bisect
from collections import Counter
from datetime import datetime

BLOCKS = " ▁▂▃▄▅▆▇█"

def sparkline(values: list[float]) -> str:
    hi = max(values) or 1
    return "".join(BLOCKS[round(v / hi * (len(BLOCKS) - 1))] for v in values)

events = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events += page["items"]
    cursor = page["next_cursor"]
    if not cursor:
        break

by_hour = Counter(datetime.fromisoformat(e["at"]).hour for e in events)
hours = [by_hour.get(h, 0) for h in range(24)]
line = sparkline(hours)

edges = [50, 100, 150]
labels = ["<50", "50-99", "100-149", "150+"]
amounts = [e["amount"] for e in events if e["kind"] == "purchase"]
bins = Counter(labels[bisect.bisect_right(edges, a)] for a in amounts)
width = max(bins.values())
rows = []
for label in labels:
    n = bins.get(label, 0)
    rows.append(f"{label:>7} | {'#' * n:<{width}} | {n:>2}")
print(f"hours 00-23: {line}")
print("\n".join(rows))
print(f"{' purchase amounts ':=^{width + 14}}")
return {"spark": line, "rows": rows, "peak_hour": max(range(24), key=lambda h: (hours[h], -h))}
