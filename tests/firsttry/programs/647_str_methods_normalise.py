# description: Normalise customer contact data with str methods, translate tables and base64 tokens
# value: {"rows": [{"id": "001", "initials": "AL", "handle": "@ada......example", "postcode": "SW1Y4JH", "token": "YzE6YWRh", "title": "12 sT jA"}, {"id": "002", "initials": "GH", "handle": "@grace....example", "postcode": "22202", "token": "YzI6Z3JhY2U", "title": "1 nAVY w"}, {"id": "003", "initials": "AT", "handle": "@alan.....example", "postcode": "M139PL", "token": "YzM6YWxhbg", "title": "oXFORD r"}, {"id": "004", "initials": "KJ", "handle": "@katherineexample", "postcode": "23666", "token": "YzQ6a2F0aGVyaW5l", "title": "1 nASA d"}, {"id": "005", "initials": "ED", "handle": "@edsger...example", "postcode": "5612AZ", "token": "YzU6ZWRzZ2Vy", "title": "dEN dOLE"}, {"id": "006", "initials": "MH", "handle": "@margaret.example", "postcode": "02139", "token": "YzY6bWFyZ2FyZXQ", "title": "77 mASSA"}], "ascii": "Cafe Creme", "casefold": true, "center": "***vip***", "split": ["a", "b", ",c"], "rsplit": ["x.y", "z"], "strip": "ok", "isdigit": [true, false, false], "count": 2, "lines": ["a\n", "b\r\n", "c"], "tabs": "a   b", "decoded": "hi there"}
import base64
import unicodedata

customers = await tools.list_customers()
table = str.maketrans({" ": "", "-": ""})
rows = []
for c in customers:
    first, _, last = c["name"].partition(" ")
    user, _, domain = c["email"].rpartition("@")
    postcode = c["address"]["postcode"].translate(table).upper()
    token = base64.urlsafe_b64encode(f"{c['id']}:{user}".encode()).decode().rstrip("=")
    rows.append({
        "id": c["id"].removeprefix("c").zfill(3),
        "initials": f"{first[0]}{last[0]}".upper(),
        "handle": f"@{user}".ljust(10, ".") + domain.removesuffix(".com"),
        "postcode": postcode,
        "token": token,
        "title": c["address"]["street"].title().swapcase()[:8],
    })
label = "Café Crème"
return {
    "rows": rows,
    "ascii": unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode(),
    "casefold": "Straße".casefold() == "STRASSE".casefold(),
    "center": "vip".center(9, "*"),
    "split": "a,b,,c".split(",", 2),
    "rsplit": "x.y.z".rsplit(".", 1),
    "strip": "--[ok]--".strip("-[]"),
    "isdigit": [s.isdigit() for s in ("123", "12a", "")],
    "count": "banana".count("an"),
    "lines": "a\nb\r\nc".splitlines(keepends=True),
    "tabs": "a\tb".expandtabs(4),
    "decoded": base64.b64decode(base64.b64encode(b"hi there")).decode(),
}
