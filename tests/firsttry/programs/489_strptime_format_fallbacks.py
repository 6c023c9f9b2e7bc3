# description: Parse dates that customers typed in several formats, trying strptime formats in turn
# value: {"parsed": {"2024-06-01": {"iso": "2024-06-01T00:00:00", "how": "%Y-%m-%d"}, "03/06/2024": {"iso": "2024-06-03T00:00:00", "how": "%d/%m/%Y"}, "Jun 05, 2024": {"iso": "2024-06-05T00:00:00", "how": "%b %d, %Y"}, "7 June 2024": {"iso": "2024-06-07T00:00:00", "how": "%d %B %Y"}, "20240608T134501": {"iso": "2024-06-08T13:45:01", "how": "%Y%m%dT%H%M%S"}, "06-09-24 02:15 PM": {"iso": "2024-06-09T14:15:00", "how": "%m-%d-%y %I:%M %p"}, "next tuesday": {"iso": null, "how": "time data 'next tuesday' does not match format '%Y-%m-%d'"}}, "ages": [14, 12, 10, 8, 6, 5], "round_trip": "167 23 6 24"}
from datetime import datetime

FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%b %d, %Y", "%d %B %Y", "%Y%m%dT%H%M%S", "%m-%d-%y %I:%M %p"]
raw = ["2024-06-01", "03/06/2024", "Jun 05, 2024", "7 June 2024", "20240608T134501", "06-09-24 02:15 PM", "next tuesday"]

def parse(text: str):
    errors = []
    for fmt in FORMATS:
        try:
            return datetime.strptime(text, fmt), fmt
        except ValueError as exc:
            errors.append(str(exc))
    return None, errors[0]

parsed = {}
for text in raw:
    value, how = parse(text)
    parsed[text] = {"iso": value.isoformat() if value else None, "how": how}
now = datetime.fromisoformat(await tools.current_time()).replace(tzinfo=None)
ok = [v["iso"] for v in parsed.values() if v["iso"]]
ages = [(now - datetime.fromisoformat(x)).days for x in ok]
return {"parsed": parsed, "ages": ages, "round_trip": datetime.strptime("15 Jun 2024", "%d %b %Y").strftime("%j %U %w %y")}
