# description: Build tracking links and an HTML order table with urllib.parse and html.escape
# value: {"links": ["https://track.example.com/v1/orders/o-1002?src=email&id=o-1002&skus=MN-27&note=a%26b+%3Cc%3E", "https://track.example.com/v1/orders/o-1009?src=email&id=o-1009&skus=HS-07&note=a%26b+%3Cc%3E"], "table_len": 372, "escaped_amp": true, "back": {"src": ["email"], "id": ["o-1002"], "skus": ["MN-27"], "note": ["a&b <c>"]}, "unquote": "a b/c", "quote_safe": "a%20b%2Fc", "join": ["https://x.com/c", "https://x.com/a/b/c?d=1"], "netloc": "host.example.com", "port": 8443, "unescape": "<b> & '"}
from urllib.parse import urlencode, urlparse, urlunparse, parse_qs, quote, unquote, urljoin, urlsplit
import html

BASE = "https://track.example.com/v1/orders?src=email"
orders = []
for cid in ("c1", "c6"):
    orders += await tools.list_orders(customer_id=cid, status="shipped")
links = []
for o in orders:
    parts = urlparse(BASE)
    q = parse_qs(parts.query)
    q.update({"id": [o["id"]], "skus": [l["sku"] for l in o["lines"]], "note": ["a&b <c>"]})
    links.append(urlunparse(parts._replace(path=parts.path + "/" + quote(o["id"]), query=urlencode(q, doseq=True))))

rows = "".join(
    f"<tr><td>{html.escape(o['id'])}</td><td><a href=\"{html.escape(link, quote=True)}\">{html.escape(o['lines'][0]['name'])} & more</a></td></tr>"
    for o, link in zip(orders, links)
)
table = f"<table>{rows}</table>"
back = parse_qs(urlsplit(links[0]).query)
return {
    "links": links,
    "table_len": len(table),
    "escaped_amp": "&amp;" in table,
    "back": back,
    "unquote": unquote("a%20b%2Fc"),
    "quote_safe": quote("a b/c", safe=""),
    "join": [urljoin("https://x.com/a/b", "../c"), urljoin("https://x.com/a/b/", "c?d=1")],
    "netloc": urlparse("https://user@host.example.com:8443/p").hostname,
    "port": urlparse("https://user@host.example.com:8443/p").port,
    "unescape": html.unescape("&lt;b&gt; &amp; &#39;"),
}
