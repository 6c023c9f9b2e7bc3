# description: Normalise contact data with str methods: translate/maketrans, partition, removeprefix, casefold, zfill, unicodedata
# value: {"contacts": [{"name": "Ada Lovelace", "slug": "ada-lovelace", "email": "ada@example.com", "phone": "+442079460018", "known": "c1", "initials": "AL"}, {"name": "Grace Hopper", "slug": "grace-hopper", "email": "grace@example.com", "phone": "+15550100", "known": "c2", "initials": "GH"}, {"name": "Edsger Dijkstra", "slug": "edsger-dijkstra", "email": "edsger@example.com", "phone": "+31402479111", "known": "c5", "initials": "ED"}, {"name": "Jos\u00e9 N\u00fa\u00f1ez", "slug": "jose-nunez", "email": "jose@example.es", "phone": "+34911234567", "known": null, "initials": "JN"}], "ids": ["0000c1", "0000c2", "0000c5", "00none"], "title": "Ada Lovelace'S Account", "swap": "hELLO", "split": ["a", "b", "", "c"], "rsplit": ["x.y", "z"], "just": ["ab..|", "  ab|", "--ab--"], "checks": [true, true, true, true, true], "expand": "a   b", "count": 2, "find": [2, 4, -1]}
import unicodedata
import re

RAW = [
    "  Ada LOVELACE <ADA@Example.com> tel: +44 (20) 7946-0018 ",
    "grace hopper<grace@example.com>   tel:001-555-0100",
    "Edsger   Dijkstra <edsger@EXAMPLE.com> tel: +31 40 247 9111",
    "José Núñez <jose@example.es> tel: 0034 91 123 4567",
]
DIGITS = str.maketrans("", "", " ()-")


def slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.casefold()).strip("-")


contacts = []
for line in RAW:
    head, _, phone = line.partition("tel:")
    name, _, email = head.partition("<")
    email = email.strip().rstrip(">").casefold()
    name = " ".join(w.capitalize() for w in name.split())
    phone = phone.strip().translate(DIGITS)
    if phone.startswith("00"):
        phone = "+" + phone.removeprefix("00")
    known = await tools.find_customer(email=email)
    contacts.append({
        "name": name,
        "slug": slug(name),
        "email": email,
        "phone": phone,
        "known": known["id"] if known else None,
        "initials": "".join(p[0] for p in name.split()),
    })

ids = [c["known"] or "none" for c in contacts]
return {
    "contacts": contacts,
    "ids": [i.zfill(6) for i in ids],
    "title": "ada lovelace's account".title(),
    "swap": "Hello".swapcase(),
    "split": "a,b,,c".split(","),
    "rsplit": "x.y.z".rsplit(".", 1),
    "just": ["ab".ljust(4, ".") + "|", "ab".rjust(4) + "|", "ab".center(6, "-")],
    "checks": ["123".isdigit(), "abc".isalpha(), "Ab1".isalnum(), " ".isspace(), "Ab".istitle()],
    "expand": "a\tb".expandtabs(4),
    "count": "banana".count("an"),
    "find": ["banana".find("n"), "banana".rfind("n"), "banana".find("z")],
}
