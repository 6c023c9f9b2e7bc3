# description: Compose a plain-text help digest for a customer question from the top search hits
# value: {"hits": ["kb-3", "kb-4", "kb-2", "kb-5"], "lines": 25, "width": 85, "quoted_blank": 6, "wrap": ["one two", "three +"]}
# logs: ["Hello,", "", "    Thanks for getting in touch about: \"how do refunds work after I cancel an order\".", "Here is what our help centre says:", "", "1. Cancelling an order (score 1.67)", "   | Pending orders can be cancelled and refunded", "   | in full.", "   https://help.example.com/kb-3", "", "2. Refund policy (score 1.00)", "   | Refunds reach your card within 5-10 days of", "   | a cancellation.", "   https://help.example.com/kb-4", "", "3. Shipping times (score 0.33)", "   | Orders ship within 2 business days; delivery", "   | takes 3-5 days.", "   https://help.example.com/kb-2", "", "4. Changing your shipping address (score 0.33)", "   | Edit the address before an order ships.", "   https://help.example.com/kb-5", "", "If none of this answers your question, reply to this message and a..."]
import textwrap

question = "how do refunds work after I cancel an order"
hits = await tools.search_docs(query="refund cancel order", limit=4)

intro = textwrap.dedent("""\
    Hello,

        Thanks for getting in touch about: "{q}".
    Here is what our help centre says:
""").format(q=question)

blocks = []
for n, h in enumerate(hits, 1):
    body = textwrap.fill(h["snippet"], width=44)
    blocks.append(f"{n}. {h['title']} (score {h['score']:.2f})\n" + textwrap.indent(body, "   | ") + f"\n   {h['url']}")

footer = textwrap.shorten("If none of this answers your question, reply to this message and a member of the support team will pick it up within one business day.", width=72, placeholder="...")
message = intro + "\n" + "\n\n".join(blocks) + "\n\n" + footer
for line in message.splitlines():
    print(line.rstrip())
width = max(len(l) for l in message.splitlines())
quoted = textwrap.indent(message, "> ", lambda l: bool(l.strip()))
return {"hits": [h["id"] for h in hits], "lines": len(message.splitlines()), "width": width,
        "quoted_blank": sum(1 for l in quoted.splitlines() if not l.startswith(">")),
        "wrap": textwrap.wrap("one two three four five six seven", width=10, max_lines=2, placeholder=" +")}
