# description: Normalise customer contact details and addresses with str methods
# value: {"rows": [{"id": "0001", "handle": "aDA", "domain": "example", "last": "..LOVELACE..", "first": "Ada_______", "street": "12 st jamess square", "postcode": "0SW1Y4JH", "digits": 2, "starts": true}, {"id": "0002", "handle": "gRACE", "domain": "example", "last": "...HOPPER...", "first": "Grace_____", "street": "1 navy way", "postcode": "00022202", "digits": 1, "starts": true}, {"id": "0003", "handle": "aLAN", "domain": "example", "last": "...TURING...", "first": "Alan______", "street": "oxford road", "postcode": "00M139PL", "digits": 0, "starts": false}, {"id": "0004", "handle": "kATHERINE", "domain": "example", "last": "..JOHNSON...", "first": "Katherine_", "street": "1 nasa drive", "postcode": "00023666", "digits": 1, "starts": true}, {"id": "0005", "handle": "eDSGER", "domain": "example", "last": "..DIJKSTRA..", "first": "Edsger____", "street": "den dolech 2", "postcode": "005612AZ", "digits": 1, "starts": false}, {"id": "0006", "handle": "mARGARET", "domain": "example", "last": "..HAMILTON..", "first": "Margaret__", "street": "77 massachusetts ave", "postcode": "00002139", "digits": 2, "starts": true}], "splitlines": ["  Line one\tcol", "Line two", "", "Line four  "], "keepends": ["  Line one\tcol\r\n", "Line two\n"], "expandtabs": "a   b   c", "strip": ["Line one\tcol\r\nLine two\n\nLine four", "Line", "hi", "  a"], "split": [["a", "b", "", "c"], ["a", "b", "c"], ["a", "b c"], ["a-b", "c"]], "find": [2, 3, -1, 2, 1], "checks": [true, true, true, true, true, true, true, false, true], "translate": "Mueller Groe\u00dfe", "capitalize": ["Hello world", "Hello World", "O'Neil'S"], "join": "NL, UK, US", "ascii": "'Zo\\xeb'", "repr_quotes": ["\"it's\"", "'say \"hi\"'", "'both \\' and \"'"], "mul_slice": ["ababab", "fdb", "def", ""], "cmp": [true, true, true], "format_center": "[====mid====]"}
# logs: ["0001|aDA|example|..LOVELACE..|Ada_______|12 st jamess square|0SW1Y4JH|2|True", "0002|gRACE|example|...HOPPER...|Grace_____|1 navy way|00022202|1|True", "0003|aLAN|example|...TURING...|Alan______|oxford road|00M139PL|0|False", "0004|kATHERINE|example|..JOHNSON...|Katherine_|1 nasa drive|00023666|1|True", "0005|eDSGER|example|..DIJKSTRA..|Edsger____|den dolech 2|005612AZ|1|False", "0006|mARGARET|example|..HAMILTON..|Margaret__|77 massachusetts ave|00002139|2|True"]
customers = await tools.list_customers()

table = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
strip_punct = str.maketrans("", "", ".,'")
rows = []
for c in customers:
    user, _, domain = c["email"].partition("@")
    first, sep, last = c["name"].rpartition(" ")
    street = c["address"]["street"]
    rows.append({
        "id": c["id"].removeprefix("c").zfill(4),
        "handle": user.title().swapcase(),
        "domain": domain.removesuffix(".com"),
        "last": last.upper().center(12, "."),
        "first": first.ljust(10, "_"),
        "street": street.translate(strip_punct).casefold(),
        "postcode": c["address"]["postcode"].replace(" ", "").rjust(8, "0"),
        "digits": sum(ch.isdigit() for ch in street),
        "starts": street.startswith(("1", "7")),
    })

text = "  Line one\tcol\r\nLine two\n\nLine four  "
for r in rows:
    print("|".join(str(v) for v in r.values()))
return {
    "rows": rows,
    "splitlines": text.splitlines(),
    "keepends": text.splitlines(keepends=True)[:2],
    "expandtabs": "a\tb\tc".expandtabs(4),
    "strip": [text.strip(), text.lstrip()[:4], "xxhixx".strip("x"), "  a ".rstrip()],
    "split": ["a,b,,c".split(","), "a  b c".split(), "a b c".split(" ", 1), "a-b-c".rsplit("-", 1)],
    "find": ["hello".find("l"), "hello".rfind("l"), "hello".find("z"), "hello".count("l"), "hello".index("e")],
    "checks": ["abc".isalpha(), "abc1".isalnum(), "ABC".isupper(), "Title Case".istitle(), "my_var".isidentifier(),
               " ".isspace(), "½".isnumeric(), "½".isdigit(), "٣".isdecimal()],
    "translate": "Müller Größe".translate(table),
    "capitalize": ["hELLO world".capitalize(), "hello world".title(), "o'neil's".title()],
    "join": ", ".join(sorted({c["address"]["country"] for c in customers})),
    "ascii": ascii("Zoë"),
    "repr_quotes": [repr("it's"), repr('say "hi"'), repr("both ' and \"")],
    "mul_slice": ["ab" * 3, "abcdef"[::-2], "abcdef"[-3:], "abc"[5:]],
    "cmp": ["apple" < "banana", "Zebra" < "apple", "a" * 0 == ""],
    "format_center": f"[{'mid':=^11}]",
}
