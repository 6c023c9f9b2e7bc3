# description: Build tracking links and parse query strings with urllib.parse
# value: {"links": ["https://help.example.com/kb-2?ref=support+bot&q=Shipping+times&ids=1&ids=2", "https://help.example.com/kb-3?ref=support+bot&q=Cancelling+an+order&ids=1&ids=2", "https://help.example.com/kb-5?ref=support+bot&q=Changing+your+shipping+address&ids=1&ids=2"], "host": "help.example.com", "path": "/kb-2", "qs": {"ref": ["support bot"], "q": ["Shipping times"], "ids": ["1", "2"]}, "quote": "a%20b/c%3Fd", "quote_plus": "a+b%26c", "unquote": "caf\u00e9", "join": "https://help.example.com/img/x.png", "scheme": "https"}
from urllib.parse import urlencode, urlparse, parse_qs, quote, unquote, urljoin, quote_plus, urlunparse

hits = await tools.search_docs(query="shipping order", limit=3)
links = []
for h in hits:
    parsed = urlparse(h["url"])
    query = urlencode({"ref": "support bot", "q": h["title"], "ids": [1, 2]}, doseq=True)
    links.append(urlunparse(parsed._replace(query=query)))
p = urlparse(links[0])
qs = parse_qs(p.query)
return {
    "links": links,
    "host": p.hostname,
    "path": p.path,
    "qs": qs,
    "quote": quote("a b/c?d"),
    "quote_plus": quote_plus("a b&c"),
    "unquote": unquote("caf%C3%A9"),
    "join": urljoin("https://help.example.com/kb/", "../img/x.png"),
    "scheme": p.scheme,
}
