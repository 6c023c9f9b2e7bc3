# description: Collect tiers in a set and signup dates as datetimes, converting both before returning
# value: {"tiers": ["enterprise", "free", "pro"], "newest": "2023-09-30", "span_days": 1592}
import datetime
customers = await tools.list_customers()
tiers = {c["tier"] for c in customers}
signups = [datetime.date.fromisoformat(c["signup_date"]) for c in customers]
newest = max(signups)
return {"tiers": sorted(tiers), "newest": newest.isoformat(), "span_days": (newest - min(signups)).days}
