# value: ["2024-03-01", 29, "Friday"]
import datetime
start = datetime.date(2024, 2, 1)
end = start + datetime.timedelta(days=29)
return [end.isoformat(), (end - start).days, end.strftime("%A")]
