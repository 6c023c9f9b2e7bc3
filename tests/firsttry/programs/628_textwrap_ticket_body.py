# description: Format a support ticket digest with textwrap fill, indent, shorten and dedent
# value: {"ticket": "Refund question about a [...]", "lines": 14, "wrapped": ["one two three four", "five six seven~"]}
# logs: ["Support digest", "  generated for the on-call team", "* Pending orders can be", "  cancelled and refunded in", "  full.", "    https://help.example.com/kb-3", "* Refunds reach your card", "  within 5-10 days of a", "  cancellation.", "    https://help.example.com/kb-4", "* Orders ship within 2", "  business days; delivery", "  takes 3-5 days.", "    https://help.example.com/kb-2"]
import textwrap

hits = await tools.search_docs(query="cancel refund order", limit=3)
intro = textwrap.dedent("""\
    Support digest
      generated for the on-call team
    """)
parts = [intro.rstrip()]
for h in hits:
    wrapped = textwrap.fill(h["snippet"], width=28, initial_indent="* ", subsequent_indent="  ")
    parts.append(wrapped)
    parts.append(textwrap.indent(h["url"], "    ", lambda line: True))
digest = "\n".join(parts)
for line in digest.splitlines():
    print(line)
t = await tools.create_ticket(customer_id="c3",
                              subject=textwrap.shorten("Refund question about a cancelled order and card", width=30, placeholder=" [...]"))
w = textwrap.TextWrapper(width=20, max_lines=2, placeholder="~")
return {"ticket": t["subject"], "lines": len(digest.splitlines()), "wrapped": w.wrap("one two three four five six seven eight nine")}
