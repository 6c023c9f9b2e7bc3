# description: Build deep links with query strings and parse them back
# value: {"links": {"c2": "https://shop.example.com/account/orders?customer=c2&orders=o-1004&orders=o-1005&name=Grace+Hopper", "c4": "https://shop.example.com/account/orders?customer=c4&orders=o-1007&orders=o-1008&name=Katherine+Johnson"}, "orders_c2": ["o-1004", "o-1005"], "pairs": [["customer", "c4"], ["orders", "o-1007"]], "quoted": ["a%20b/c", "a+b%2Fc", "%C3%BC"], "host": "shop.example.com"}
from urllib.parse import urlencode, quote, quote_plus, parse_qs, parse_qsl, urljoin, urlsplit

base = "https://shop.example.com/account/"
links = {}
for c in await tools.list_customers(tier="pro"):
    orders = await tools.list_orders(customer_id=c["id"])
    query = urlencode({"customer": c["id"], "orders": [o["id"] for o in orders], "name": c["name"]}, doseq=True)
    links[c["id"]] = urljoin(base, "orders?" + query)

parsed = {cid: parse_qs(urlsplit(url).query) for cid, url in links.items()}
return {
    "links": links,
    "orders_c2": parsed["c2"]["orders"],
    "pairs": parse_qsl(urlsplit(links["c4"]).query)[:2],
    "quoted": [quote("a b/c"), quote_plus("a b/c"), quote("ü", safe="")],
    "host": urlsplit(links["c2"]).hostname,
}
