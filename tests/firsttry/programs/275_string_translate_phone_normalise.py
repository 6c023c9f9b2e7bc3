# description: Normalise phone numbers from support notes and send SMS confirmations to valid ones
# value: {"c1": {"phone": "+44 207 946 0958", "receipt": "ntf-1"}, "c2": {"phone": "+1 703 555 0147", "receipt": "ntf-2"}, "c4": {"phone": null}, "c5": {"phone": "+31 40 247 9111", "receipt": "ntf-3"}, "c3": {"phone": null}}
# logs: ["c1:     +44 207 946 0958  <- 'Call me on +44 (0)20 7946-0958 after 5pm'", "c2:      +1 703 555 0147  <- 'tel: 001.703.555.0147'", "c4:                    -  <- 'mobile (757) 555 0199 ext. 12'", "c5:      +31 40 247 9111  <- 'phone: +31 40 247 9111'", "c3:                    -  <- 'no phone, email only'"]
import re

NOTES = {
    "c1": "Call me on +44 (0)20 7946-0958 after 5pm",
    "c2": "tel: 001.703.555.0147",
    "c4": "mobile (757) 555 0199 ext. 12",
    "c5": "phone: +31 40 247 9111",
    "c3": "no phone, email only",
}
STRIP = str.maketrans("", "", " .-()")
COUNTRY = {"UK": "44", "US": "1", "NL": "31"}

def normalise(note: str, country: str) -> str | None:
    m = re.search(r"(?:tel:|phone:|mobile|me on)\s*([+\d][\d\s().-]{6,})", note)
    if not m:
        return None
    raw, _, _ = m.group(1).partition("ext")
    digits = raw.replace("(0)", "").translate(STRIP)
    if digits.startswith("+"):
        digits = digits.removeprefix("+")
    elif digits.startswith("00"):
        digits = digits.removeprefix("00")
    else:
        digits = COUNTRY[country] + digits.lstrip("0")
    if not digits.isdigit() or not 10 <= len(digits) <= 13:
        return None
    cc = next((c for c in sorted(COUNTRY.values(), key=len, reverse=True) if digits.startswith(c)), "")
    rest = digits[len(cc):]
    return f"+{cc} {rest[:-7]} {rest[-7:-4]} {rest[-4:]}".replace("  ", " ")

results = {}
for cid, note in NOTES.items():
    customer = await tools.get_customer(customer_id=cid)
    phone = normalise(note, customer["address"]["country"])
    if phone:
        r = await tools.send_notification(to=phone.replace(" ", ""), message="Your support callback is booked.", channel="sms")
        results[cid] = {"phone": phone, "receipt": r["id"]}
    else:
        results[cid] = {"phone": None}
    print(f"{cid}: {phone or '-':>20}  <- {note!r}")
return results
