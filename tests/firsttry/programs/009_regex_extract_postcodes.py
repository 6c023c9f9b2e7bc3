# description: Classify customer postcodes by country format
# value: {"uk": ["SW1Y 4JH", "M13 9PL"], "us": ["22202", "23666", "02139"], "nl": ["5612 AZ"], "unknown": [], "email_domains": ["example.com"]}
import re

UK_POSTCODE = re.compile(r"^[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$")
US_ZIP = re.compile(r"^\d{5}(-\d{4})?$")
NL_POSTCODE = re.compile(r"^\d{4}\s?[A-Z]{2}$")

customers = await tools.list_customers()
result = {"uk": [], "us": [], "nl": [], "unknown": []}
for c in customers:
    code = c["address"]["postcode"]
    if UK_POSTCODE.match(code):
        result["uk"].append(code)
    elif US_ZIP.match(code):
        result["us"].append(code)
    elif NL_POSTCODE.match(code):
        result["nl"].append(code)
    else:
        result["unknown"].append(code)

domains = sorted({re.sub(r"^[^@]+@", "", c["email"]) for c in customers})
result["email_domains"] = domains
return result
