# description: Build a weekly digest in a buffer with print(file=...) and send it to enterprise customers
# value: {"receipts": ["ntf-1", "ntf-2"], "digests": {"c1": ["Weekly digest for Ada Lovelace", "", "OPEN ORDERS", "-----------", "  o-1002  shipped    559.98 EUR", "  o-1003  pending    188.00 EUR", "", "DELIVERED", "---------", "  o-1001 on 2024-05-02", "", "Tags: #vip #beta"], "c6": ["Weekly digest for Margaret Hamilton", "", "OPEN ORDERS", "-----------", "  o-1009  shipped    447.00 EUR", "  o-1010  pending    268.00 EUR", "", "DELIVERED", "---------", "  o-1011 on 2024-01-05", "", "Tags: #vip"]}}
# logs: ["sent 2 digests"]
import io
import textwrap

def write_section(out: io.StringIO, title: str, rows: list[str]) -> None:
    print(title.upper(), file=out)
    print("-" * len(title), file=out)
    for row in rows or ["(nothing)"]:
        print(textwrap.indent(row, "  "), file=out)
    print(file=out)

receipts = []
digests = {}
for c in await tools.list_customers(tier="enterprise"):
    orders = await tools.list_orders(customer_id=c["id"])
    buf = io.StringIO()
    print(f"Weekly digest for {c['name']}", file=buf, end="\n\n")
    write_section(buf, "open orders", [f"{o['id']}  {o['status']:<8} {o['total']:>8.2f} {o['currency']}" for o in orders if o["status"] in ("pending", "shipped")])
    write_section(buf, "delivered", [f"{o['id']} on {o['created']}" for o in orders if o["status"] == "delivered"])
    print("Tags:", *c["tags"], sep=" #", file=buf)
    text = buf.getvalue()
    digests[c["id"]] = text.splitlines()
    receipts.append((await tools.send_notification(to=c["email"], message=text))["id"])
print(f"sent {len(receipts)} digests")
return {"receipts": receipts, "digests": digests}
