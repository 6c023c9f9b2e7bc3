# description: Find help articles about cancelling and refunds
# value: {"top": "kb-3", "ids": ["kb-3", "kb-4"], "answer": "Relevant articles:\n- Cancelling an order (https://help.example.com/kb-3)\n- Refund policy (https://help.example.com/kb-4)"}
# logs: ["Relevant articles:", "- Cancelling an order (https://help.example.com/kb-3)", "- Refund policy (https://help.example.com/kb-4)"]
hits = await tools.search_docs(query="cancel refund", limit=3)
if not hits:
    return "No articles found."

lines = [f"- {h['title']} ({h['url']})" for h in hits]
answer = "Relevant articles:\n" + "\n".join(lines)
print(answer)
return {"top": hits[0]["id"], "ids": [h["id"] for h in hits], "answer": answer}
