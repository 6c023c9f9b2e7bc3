# description: Normalise messy support input before looking customers up
# value: {"found": {"ada@example.com": "Ada Lovelace", "grace@example.com": "Grace Hopper", "alan@example.com": "Alan Turing", "nobody@nowhere.org": null, "katherine@example.com": "Katherine Johnson"}, "spoken": "ada at example dot com", "initials": ["AL", "GH", "AT", "KJ"], "padded": ["****Ada****", "***Grace***"], "ids": ["0007", "0042"], "title": "The Left Hand", "swap": "hELLO", "tabs": "a   b", "count_at": 5, "startswith": [false, true, true, false, false]}
raw_inputs = ["  ADA@Example.com ", "mailto:grace@example.com", "Alan Turing <alan@example.com>", "nobody@nowhere.org", "\tkatherine@EXAMPLE.COM\n"]

def clean(raw: str) -> str:
    s = raw.strip().removeprefix("mailto:")
    if "<" in s:
        _, _, rest = s.partition("<")
        s, _, _ = rest.rpartition(">")
    return s.casefold()

found = {}
for raw in raw_inputs:
    email = clean(raw)
    c = await tools.find_customer(email=email)
    found[email] = c["name"] if c else None

table = str.maketrans({"@": " at ", ".": " dot "})
names = [n for n in found.values() if n]
return {
    "found": found,
    "spoken": "ada@example.com".translate(table),
    "initials": ["".join(w[0] for w in n.split()).upper() for n in names],
    "padded": [n.split()[0].center(11, "*") for n in names[:2]],
    "ids": [str(i).zfill(4) for i in (7, 42)],
    "title": "the LEFT hand".title(),
    "swap": "Hello".swapcase(),
    "tabs": "a\tb".expandtabs(4),
    "count_at": sum(r.count("@") for r in raw_inputs),
    "startswith": [r.lstrip().startswith(("mailto:", "Alan")) for r in raw_inputs],
}
