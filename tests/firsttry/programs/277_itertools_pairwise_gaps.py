# description: Find quiet gaps between events and rotate follow-up channels round-robin
# value: {"longest_gaps": ["5.38h 13 22:22->14 03:45", "4.87h 14 06:06->14 10:58", "4.38h 10 21:39->11 02:02"], "purchase_ids": [3, 5, 10, 12, 17, 19], "non_zero": 20, "first_error_id": 4, "pairs": [[1, 2], [2, 3], [3, 4], [4, 5], [5, 6]], "followups": [["c1", "email", "ntf-1"], ["c2", "sms", "ntf-2"], ["c3", "push", "ntf-3"], ["c4", "email", "ntf-4"], ["c5", "sms", "ntf-5"], ["c6", "push", "ntf-6"]], "repeat": ["-", "-", "-"]}
import itertools
from datetime import datetime, timedelta

events = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events += page["items"]
    if (cursor := page["next_cursor"]) is None:
        break

times = sorted(datetime.fromisoformat(e["at"]) for e in events)
gaps = [(b - a, a, b) for a, b in itertools.pairwise(times)]
longest = sorted(gaps, reverse=True)[:3]
purchases_mask = [e["kind"] == "purchase" for e in events]
purchase_ids = list(itertools.compress((e["id"] for e in events), purchases_mask))
non_zero = list(itertools.filterfalse(lambda e: e["amount"] == 0, events))
after_first_error = list(itertools.dropwhile(lambda e: e["kind"] != "error", events))
head, tail = itertools.tee(e["id"] for e in events[:6])
next(tail)
pairs = list(zip(head, tail))

channels = itertools.cycle(["email", "sms", "push"])
followups = []
for customer_id, channel in zip(sorted({e["customer_id"] for e in events if e["kind"] == "refund"}), channels):
    c = await tools.get_customer(customer_id=customer_id)
    to = {"email": c["email"], "sms": "+1-555-0100", "push": c["id"]}[channel]
    r = await tools.send_notification(to=to, message="How was your refund experience?", channel=channel)
    followups.append([customer_id, r["channel"], r["id"]])

return {
    "longest_gaps": [f"{g / timedelta(hours=1):.2f}h {a:%d %H:%M}->{b:%d %H:%M}" for g, a, b in longest],
    "purchase_ids": purchase_ids[:6],
    "non_zero": len(non_zero),
    "first_error_id": after_first_error[0]["id"],
    "pairs": pairs,
    "followups": followups,
    "repeat": list(itertools.repeat("-", 3)),
}
