# description: Lay out help-centre answers for a ticket reply with textwrap.TextWrapper and friends
# value: {"body": ["Cancelling an order (score 1.0)", "  * Pending orders can be cancelled", "    and refunded in full.", "Shipping times (score 0.5)", "  * Orders ship within 2 business", "    days; delivery takes 3-5 days.", "Refund policy (score 0.5)", "  * Refunds reach your card within", "    5-10 days of a cancellation.", "Changing your shipping address (score 0.5)", "  * Edit the address before an order", "    ships."], "narrow": "Pending orders can\nbe cancelled [more]", "shorten": "Pending orders can be cancelled and refunded in...", "template": "Hello,\n\n    Thanks for reaching out.\nRegards\n", "quoted": "> line one\n> \n> line three", "fill": "a-very-long-\nhyphenated-\nword and\nmore words\nhere", "wrapper_width": 36}
# logs: ["Cancelling an order (score 1.0)", "  * Pending orders can be cancelled", "    and refunded in full.", "Shipping times (score 0.5)", "  * Orders ship within 2 business", "    days; delivery takes 3-5 days.", "Refund policy (score 0.5)", "  * Refunds reach your card within", "    5-10 days of a cancellation.", "Changing your shipping address (score 0.5)", "  * Edit the address before an order", "    ships."]
import textwrap

hits = await tools.search_docs(query="order refund cancelled shipping", limit=4)

wrapper = textwrap.TextWrapper(
    width=36,
    initial_indent="  * ",
    subsequent_indent="    ",
    break_long_words=False,
    break_on_hyphens=True,
)
body = []
for hit in hits:
    body.append(f"{hit['title']} (score {hit['score']})")
    body.extend(wrapper.wrap(hit["snippet"]))

narrow = textwrap.TextWrapper(width=20, max_lines=2, placeholder=" [more]")
long_text = " ".join(h["snippet"] for h in hits)
template = textwrap.dedent(
    """\
    Hello,

        Thanks for reaching out.
    Regards
    """
)
quoted = textwrap.indent("line one\n\nline three", "> ", predicate=lambda l: True)
for line in body:
    print(line)
return {
    "body": body,
    "narrow": narrow.fill(long_text),
    "shorten": textwrap.shorten(long_text, width=50, placeholder="..."),
    "template": template,
    "quoted": quoted,
    "fill": textwrap.fill("a-very-long-hyphenated-word and more words here", width=12),
    "wrapper_width": wrapper.width,
}
