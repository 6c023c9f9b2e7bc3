# description: Render an HTML table of search hits with escaping
# value: {"rows": 4, "first": "<tr><td><a href=\"https://help.example.com/kb-1\">Resetting your password</a></td><td>1.50</td><td title=\"Use the &#x27;Forgot password&#x27; link to reset a password.\">Use the &#x27;Forgot&hellip;</td></tr>", "unescaped": "<b> & 'q'", "has_quote_escape": true}
import html

hits = await tools.search_docs(query="password order", limit=4)
rows = []
for h in hits:
    title = html.escape(h["title"])
    snippet = html.escape(h["snippet"], quote=True)
    rows.append(f'<tr><td><a href="{html.escape(h["url"])}">{title}</a></td><td>{h["score"]:.2f}</td><td title="{snippet}">{snippet[:20]}&hellip;</td></tr>')
table = "<table>\n" + "\n".join(rows) + "\n</table>"
return {"rows": len(rows), "first": rows[0], "unescaped": html.unescape("&lt;b&gt; &amp; &#39;q&#39;"), "has_quote_escape": "&#x27;" in table}
