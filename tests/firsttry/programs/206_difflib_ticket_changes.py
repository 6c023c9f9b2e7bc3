# description: Show what changed between two drafts of a customer reply with difflib
# value: {"ndiff": ["- Hello,", "+ Hello Ada,", "  Your order was cancelled.", "+ See: Cancelling an order.", "- Refunds take 5 days.", "+ Refunds take 5-10 days.", "  Thanks"], "ops": [["replace", 0, 1, 0, 1], ["equal", 1, 2, 1, 2], ["replace", 2, 3, 2, 4], ["equal", 3, 4, 4, 5]], "ratio": 0.9302, "context": ["*** v1", "--- v2", "***************", "*** 1 ****", "! Hello,", "--- 1 ----", "! Hello Ada,", "***************", "*** 3 ****", "! Refunds take 5 days.", "--- 3,4 ----", "! See: Cancelling an order.", "! Refunds take 5-10 days."], "blocks": [[0, 0, 2], [3, 2, 2], [5, 4, 0]], "close": ["refund", "refine"], "quick": 0.444}
import difflib

hits = await tools.search_docs(query="refund cancelled order")
old = ["Hello,", "Your order was cancelled.", "Refunds take 5 days.", "Thanks"]
new = ["Hello Ada,", "Your order was cancelled.", f"See: {hits[0]['title']}.", "Refunds take 5-10 days.", "Thanks"]
nd = [l for l in difflib.ndiff(old, new) if not l.startswith("?")]
sm = difflib.SequenceMatcher(None, old, new)
ops = [(tag, i1, i2, j1, j2) for tag, i1, i2, j1, j2 in sm.get_opcodes()]
ratio = round(difflib.SequenceMatcher(None, "Refunds take 5 days.", "Refunds take 5-10 days.").ratio(), 4)
ctx = list(difflib.context_diff(old, new, fromfile="v1", tofile="v2", lineterm="", n=0))
blocks = difflib.SequenceMatcher(None, "abxcd", "abcd").get_matching_blocks()
close = difflib.get_close_matches("refnd", ["refund", "refine", "round", "fund"], n=2, cutoff=0.5)
return {"ndiff": nd, "ops": ops, "ratio": ratio, "context": ctx, "blocks": [tuple(b) for b in blocks], "close": close,
        "quick": round(sm.quick_ratio(), 3)}
