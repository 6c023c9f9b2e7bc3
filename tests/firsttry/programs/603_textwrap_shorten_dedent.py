# description: Format help-centre search results with textwrap.shorten, fill and dedent
# value: {"short": "Cancelling an order Refund policy [...]", "lines": 6}
# logs: ["Results", "-------", "1. Cancelling an order (1.50)", "   Pending orders can be", "   cancelled and refunded in", "   full.", "2. Refund policy (1.00)", "   Refunds reach your card within", "   5-10 days of a cancellation.", "3. Shipping times (0.50)", "   Orders ship within 2 business", "   days; delivery takes 3-5 days."]
import textwrap

hits = await tools.search_docs(query="order refund", limit=3)
header = textwrap.dedent("""\
    Results
    -------
""")
body = []
for i, h in enumerate(hits, 1):
    body.append(f"{i}. {h['title']} ({h['score']:.2f})")
    body.append(textwrap.indent(textwrap.fill(h["snippet"], width=30), "   "))
short = textwrap.shorten(" ".join(h["title"] for h in hits), width=40, placeholder=" [...]")
print(header + "\n".join(body))
return {"short": short, "lines": len(body)}
