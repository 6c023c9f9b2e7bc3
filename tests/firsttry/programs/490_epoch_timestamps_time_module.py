# description: Convert event timestamps to Unix epoch seconds and back with timestamp(), fromtimestamp and the time module
# value: {"rows": [{"id": 1, "epoch": 1718003580, "back": "2024-06-10T07:13:00+00:00", "same": true}, {"id": 2, "epoch": 1718029560, "back": "2024-06-10T14:26:00+00:00", "same": true}, {"id": 3, "epoch": 1718055540, "back": "2024-06-10T21:39:00+00:00", "same": true}, {"id": 4, "epoch": 1717995120, "back": "2024-06-10T04:52:00+00:00", "same": true}, {"id": 5, "epoch": 1718017500, "back": "2024-06-10T11:05:00+00:00", "same": true}], "gm": "2024-06-10 07:13:00", "yday": 162, "deltas": [25980, 25980, -60420, 22380], "epoch0": "1970-01-01T00:00:00+00:00", "ms": 1718409600000}
import time
from datetime import datetime, timezone

page = await tools.list_events(page_size=5)
rows = []
for e in page["items"]:
    at = datetime.fromisoformat(e["at"])
    ts = at.timestamp()
    back = datetime.fromtimestamp(ts, tz=timezone.utc)
    rows.append({"id": e["id"], "epoch": int(ts), "back": back.isoformat(), "same": back == at})
g = time.gmtime(rows[0]["epoch"])
return {"rows": rows, "gm": time.strftime("%Y-%m-%d %H:%M:%S", g), "yday": g.tm_yday,
        "deltas": [b["epoch"] - a["epoch"] for a, b in zip(rows, rows[1:])],
        "epoch0": datetime.fromtimestamp(0, timezone.utc).isoformat(),
        "ms": int(datetime(2024, 6, 15, tzinfo=timezone.utc).timestamp() * 1000)}
