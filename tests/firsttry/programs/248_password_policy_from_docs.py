# description: Read the password policy from the help centre and check candidate passwords against it
# value: {"doc": "kb-7", "min_len": 12, "need": {"digit": 1, "symbol": 1}, "verdicts": {"hunter2": ["too short (7<12)", "needs 1 symbol"], "correct horse battery": ["needs 1 digit", "needs 1 symbol"], "Tr0ub4dor&3xyz": "ok", "aaa111!!!bbbccc": ["repeats a character 3 times"], "S3cure-Passphrase": "ok"}}
# logs: ["policy from kb-7: min 12, needs {'digit': 1, 'symbol': 1}", "hunter2                  too short (7<12); needs 1 symbol", "correct horse battery    needs 1 digit; needs 1 symbol", "Tr0ub4dor&3xyz           OK", "aaa111!!!bbbccc          repeats a character 3 times", "S3cure-Passphrase        OK"]
import re
import string

WORDS = {"one": 1, "two": 2, "three": 3}

hits = await tools.search_docs(query="password requirements", limit=3)
policy_doc = next(h for h in hits if "requirement" in h["title"].casefold())
text = policy_doc["snippet"]
m = re.search(r"(\d+) characters", text)
min_len = int(m.group(1)) if m else 8
need = {kind: WORDS.get(n, 1) for n, kind in re.findall(r"(one|two|three) (digit|symbol|uppercase)", text)}
print(f"policy from {policy_doc['id']}: min {min_len}, needs {need}")

def problems(pw: str) -> list[str]:
    out = []
    if len(pw) < min_len:
        out.append(f"too short ({len(pw)}<{min_len})")
    counts = {
        "digit": sum(c in string.digits for c in pw),
        "symbol": sum(c in string.punctuation for c in pw),
        "uppercase": sum(c in string.ascii_uppercase for c in pw),
    }
    for kind, n in need.items():
        if counts[kind] < n:
            out.append(f"needs {n} {kind}")
    if any(pw.casefold().count(ch * 3) for ch in set(pw.casefold())):
        out.append("repeats a character 3 times")
    return out

candidates = ["hunter2", "correct horse battery", "Tr0ub4dor&3xyz", "aaa111!!!bbbccc", "S3cure-Passphrase"]
verdicts = {pw: problems(pw) or "ok" for pw in candidates}
for pw, v in verdicts.items():
    print(f"{pw:<24} {'OK' if v == 'ok' else '; '.join(v)}")
return {"doc": policy_doc["id"], "min_len": min_len, "need": need, "verdicts": verdicts}
