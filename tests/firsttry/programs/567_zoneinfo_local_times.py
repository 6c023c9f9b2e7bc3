# description: Show the current time in each customer's local time zone
# value: {"c1": "10:30 BST", "c2": "05:30 EDT", "c3": "10:30 BST", "c4": "05:30 EDT", "c5": "11:30 CEST", "c6": "05:30 EDT"}
# limitation: the zoneinfo module is not available in run_code (no time zone database); the refusal names fixed offsets with datetime.timezone
from datetime import datetime
from zoneinfo import ZoneInfo

zones = {"UK": "Europe/London", "US": "America/New_York", "NL": "Europe/Amsterdam"}
now = datetime.fromisoformat(await tools.current_time())
customers = await tools.list_customers()
local = {}
for c in customers:
    tz = ZoneInfo(zones[c["address"]["country"]])
    local[c["id"]] = now.astimezone(tz).strftime("%H:%M %Z")
return local
