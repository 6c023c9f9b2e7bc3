# description: Redact user ids and round amounts in the billing log using re.sub with a function
# value: "ERROR billing charge failed insufficient_funds amount=149 user=c*"
# logs: ["ERROR billing charge failed card_declined amount=45 user=c*", "WARN  billing retry scheduled amount=45 user=c*", "ERROR billing charge failed insufficient_funds amount=149 user=c*"]
import re

raw = await tools.fetch_logs(service="billing")

def mask_user(m: re.Match) -> str:
    uid = m.group("uid")
    return f"user={uid[0]}{'*' * (len(uid) - 1)}"

def round_amount(m):
    return f"amount={round(float(m['value']))}"

redacted = re.sub(r"user=(?P<uid>\w+)", mask_user, raw)
redacted = re.sub(r"amount=(?P<value>\d+\.\d+)", round_amount, redacted)
lines = redacted.strip().splitlines()
for line in lines:
    print(line[20:])
return lines[-1][20:]
