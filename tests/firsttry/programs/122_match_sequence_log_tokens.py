# description: Tokenise log lines and dispatch with sequence patterns
# value: {"failures": [{"reason": "card_declined", "amount": 45.0, "user": "c3"}, {"reason": "insufficient_funds", "amount": 149.0, "user": "c6"}], "retries": ["08:10:02"], "requests": 9}
text = await tools.fetch_logs()
failures, retries, requests = [], [], 0
for line in text.strip().splitlines():
    match line.split():
        case [_, _, "ERROR", "billing", "charge", "failed", reason, amount, user]:
            failures.append({"reason": reason, "amount": float(amount.split("=")[1]), "user": user.removeprefix("user=")})
        case [_, time, "WARN", "billing", "retry", *rest]:
            retries.append(time)
        case [_, _, level, "api", method, path, status, *_] if status.isdigit():
            requests += 1
        case other:
            print("unmatched:", other[:3])
return {"failures": failures, "retries": retries, "requests": requests}
