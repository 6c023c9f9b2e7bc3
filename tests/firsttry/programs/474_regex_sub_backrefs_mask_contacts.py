# description: Mask customer emails and reformat postcodes with re.sub group references
# value: {"masked": [{"id": "c1", "short": "ada[at]example.com", "hidden": "a***@example.com", "swapped": "example:ada.com", "domain": "example", "span": [0, 3]}, {"id": "c2", "short": "grace[at]example.com", "hidden": "g***@example.com", "swapped": "example:grace.com", "domain": "example", "span": [0, 5]}, {"id": "c3", "short": "alan[at]example.com", "hidden": "a***@example.com", "swapped": "example:alan.com", "domain": "example", "span": [0, 4]}, {"id": "c4", "short": "katherine[at]example.com", "hidden": "k***@example.com", "swapped": "example:katherine.com", "domain": "example", "span": [0, 9]}, {"id": "c5", "short": "edsger[at]example.com", "hidden": "e***@example.com", "swapped": "example:edsger.com", "domain": "example", "span": [0, 6]}, {"id": "c6", "short": "margaret[at]example.com", "hidden": "m***@example.com", "swapped": "example:margaret.com", "domain": "example", "span": [0, 8]}], "uk": ["SW1Y 4JH", "M13 9PL", "561 2AZ"], "n": 6}
import re

customers = await tools.list_customers()
EMAIL = re.compile(r"(?P<user>[\w.+-]+)@(?P<domain>[\w-]+)\.(?P<tld>\w+)")
masked = []
for c in customers:
    m = EMAIL.fullmatch(c["email"])
    short = EMAIL.sub(r"\g<user>[at]\g<domain>.\g<tld>", c["email"])
    hidden = re.sub(r"^(\w)\w*@", r"\1***@", c["email"])
    swapped = re.sub(r"(\w+)@(\w+)", r"\2:\1", c["email"])
    masked.append({"id": c["id"], "short": short, "hidden": hidden, "swapped": swapped,
                   "domain": m.group("domain"), "span": list(m.span("user"))})
postcodes = [re.sub(r"\s+", "", c["address"]["postcode"]) for c in customers]
uk = [re.sub(r"^([A-Z0-9]+?)(\d[A-Z]{2})$", r"\1 \2", p) for p in postcodes if re.search("[A-Z]", p)]
return {"masked": masked, "uk": uk, "n": len(masked)}
