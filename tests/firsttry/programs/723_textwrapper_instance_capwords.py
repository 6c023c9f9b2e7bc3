# description: A configured textwrap.TextWrapper and string.capwords for a ticket digest
# value: {"lines": ["Refund Policy", "* Refunds reach your card within 5-10", "  days of a cancellation.", "Cancelling An Order", "* Pending orders can be cancelled and", "  refunded in full."], "title": "O'Neil'S Order", "cap": "O'neil's Order"}
# logs: ["Refund Policy", "* Refunds reach your card within 5-10", "  days of a cancellation.", "Cancelling An Order", "* Pending orders can be cancelled and", "  refunded in full."]
import string
import textwrap

hits = await tools.search_docs(query="refund policy", limit=3)
wrapper = textwrap.TextWrapper(width=40, initial_indent="* ", subsequent_indent="  ", max_lines=3, placeholder=" [...]")
lines = []
for h in hits:
    lines.append(string.capwords(h["title"]))
    lines.extend(wrapper.wrap(h["snippet"]))
print("\n".join(lines))
return {"lines": lines, "title": "o'neil's order".title(), "cap": string.capwords("o'neil's order")}
