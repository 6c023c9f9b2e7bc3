# description: Compute order ages and SLA budgets with timedelta arithmetic, floor division and divmod
# value: {"rows": [{"id": "o-1001", "age": "44 days, 9:30:00", "hours": 1065, "weeks": 6, "rest_days": 2, "over_sla": true, "sla_left": null, "ratio": 12.685}, {"id": "o-1002", "age": "5 days, 9:30:00", "hours": 129, "weeks": 0, "rest_days": 5, "over_sla": true, "sla_left": null, "ratio": 1.542}, {"id": "o-1003", "age": "1 day, 9:30:00", "hours": 33, "weeks": 0, "rest_days": 1, "over_sla": false, "sla_left": "2 days, 2:30:00", "ratio": 0.399}], "half": "1 day, 18:00:00", "neg": "-1 day, 19:00:00", "neg_days": -1, "neg_seconds": 68400, "abs": "5:00:00", "total_s": 302400.0, "times3": "10 days, 12:00:00", "dates": 166, "repr": "datetime.timedelta(seconds=5400)"}
from datetime import date, datetime, timedelta

now = datetime.fromisoformat(await tools.current_time())
orders = await tools.list_orders(customer_id="c1")
sla = timedelta(days=3, hours=12)
rows = []
for o in orders:
    created = datetime.fromisoformat(o["created"]).replace(tzinfo=now.tzinfo)
    age = now - created
    weeks, rest = divmod(age, timedelta(weeks=1))
    rows.append({
        "id": o["id"], "age": str(age), "hours": age // timedelta(hours=1),
        "weeks": weeks, "rest_days": rest.days, "over_sla": age > sla,
        "sla_left": str(sla - age) if age < sla else None,
        "ratio": round(age / sla, 3),
    })
half = sla / 2
neg = timedelta(hours=-5)
return {"rows": rows, "half": str(half), "neg": str(neg), "neg_days": neg.days, "neg_seconds": neg.seconds,
        "abs": str(abs(neg)), "total_s": sla.total_seconds(), "times3": str(sla * 3),
        "dates": (date(2024, 6, 15) - date(2024, 1, 1)).days, "repr": repr(timedelta(minutes=90))}
