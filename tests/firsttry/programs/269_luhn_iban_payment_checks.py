# description: Validate card numbers and IBANs submitted with refund requests before opening tickets
# value: [{"customer": "c1", "kind": "card", "masked": "************6467", "valid": true}, {"customer": "c2", "kind": "card", "masked": "************6468", "valid": false, "ticket": "T-101"}, {"customer": "c4", "kind": "iban", "masked": "******************5432", "valid": true}, {"customer": "c5", "kind": "iban", "masked": "**************4300", "valid": true}, {"customer": "c6", "kind": "iban", "masked": "**************4301", "valid": false, "ticket": "T-102"}, {"customer": "c3", "kind": "card", "masked": "1234", "valid": false, "ticket": "T-103"}]
# logs: ["c1 card       ************6467 valid", "c2 card       ************6468 INVALID", "c4 iban ******************5432 valid", "c5 iban     **************4300 valid", "c6 iban     **************4301 INVALID", "c3 card                   1234 INVALID"]
import re
import string

def luhn_ok(number: str) -> bool:
    digits = [int(d) for d in re.sub(r"[\s-]", "", number)]
    if len(digits) < 12:
        return False
    checksum = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        checksum += d
    return checksum % 10 == 0

LETTERS = str.maketrans({c: str(10 + i) for i, c in enumerate(string.ascii_uppercase)})

def iban_ok(iban: str) -> bool:
    compact = iban.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", compact):
        return False
    rearranged = compact[4:] + compact[:4]
    return int(rearranged.translate(LETTERS)) % 97 == 1

def mask(value: str) -> str:
    compact = re.sub(r"\s|-", "", value)
    return f"{'*' * (len(compact) - 4)}{compact[-4:]}"

requests = [
    ("c1", "card", "4539 1488 0343 6467"),
    ("c2", "card", "4539-1488-0343-6468"),
    ("c4", "iban", "GB82 WEST 1234 5698 7654 32"),
    ("c5", "iban", "NL91ABNA0417164300"),
    ("c6", "iban", "NL91ABNA0417164301"),
    ("c3", "card", "1234"),
]
results = []
for cid, kind, value in requests:
    valid = luhn_ok(value) if kind == "card" else iban_ok(value)
    entry = {"customer": cid, "kind": kind, "masked": mask(value), "valid": valid}
    if not valid:
        ticket = await tools.create_ticket(customer_id=cid, subject=f"Invalid {kind} {mask(value)} on refund request", priority="low")
        entry["ticket"] = ticket["id"]
    results.append(entry)
    print(f"{cid} {kind:<4} {mask(value):>22} {'valid' if valid else 'INVALID'}")
return results
