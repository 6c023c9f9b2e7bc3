# description: Build a ticket digest with textwrap.shorten, dedent, indent and fill
# value: {"message": "Dear customer,\n\n  Here are the articles we found:\n  * Cancelling an order: Pending [...]\n  * Shipping times: Orders ship within [...]\n  * Refund policy: Refunds reach your [...]\n  * Changing your shipping address: [...]\n\n> Reply to this email if none\n> of these articles answers\n> your question about the\n> order.", "quoted": "| a\n| \n| b\n", "widths": [34, 40, 39, 37]}
# logs: ["Dear customer,", "", "  Here are the articles we found:", "  * Cancelling an order: Pending [...]", "  * Shipping times: Orders ship within [...]", "  * Refund policy: Refunds reach your [...]", "  * Changing your shipping address: [...]", "", "> Reply to this email if none", "> of these articles answers", "> your question about the", "> order."]
import textwrap

hits = await tools.search_docs(query="order refund shipping", limit=4)
body = textwrap.dedent("""\
    Dear customer,

      Here are the articles we found:
    """)
lines = [textwrap.shorten(f"{h['title']}: {h['snippet']}", width=40, placeholder=" [...]") for h in hits]
bullets = textwrap.indent("\n".join(lines), "  * ")
note = textwrap.fill("Reply to this email if none of these articles answers your question about the order.",
                     width=30, initial_indent="> ", subsequent_indent="> ")
quoted = textwrap.indent("a\n\nb\n", "| ", predicate=lambda line: True)
message = body + bullets + "\n\n" + note
print(message)
return {"message": message, "quoted": quoted, "widths": [len(x) for x in lines]}
