# description: IntFlag notification channels combined, printed and sent as an int
# value: {"out": {"c1": {"int": 5, "str": "5", "repr": "<Channel.EMAIL|PUSH: 5>", "names": ["EMAIL", "PUSH"], "bool": true, "fmt": "101"}, "c2": {"int": 2, "str": "2", "repr": "<Channel.SMS: 2>", "names": ["SMS"], "bool": true, "fmt": "010"}, "c3": {"int": 0, "str": "0", "repr": "<Channel: 0>", "names": [], "bool": false, "fmt": "000"}}, "status": "queued"}
from enum import IntFlag

class Channel(IntFlag):
    EMAIL = 1
    SMS = 2
    PUSH = 4

prefs = {"c1": Channel.EMAIL | Channel.PUSH, "c2": Channel.SMS, "c3": Channel(0)}
out = {}
for cid, ch in prefs.items():
    out[cid] = {"int": int(ch), "str": str(ch), "repr": repr(ch), "names": [m.name for m in Channel if m in ch],
                "bool": bool(ch), "fmt": f"{ch:03b}"}
receipt = await tools.send_notification(to="c1", message=f"channels={int(prefs['c1'])}", channel="push")
return {"out": out, "status": receipt["status"]}
