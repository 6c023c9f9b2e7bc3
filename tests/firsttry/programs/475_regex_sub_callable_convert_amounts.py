# description: Rewrite the EUR amounts in billing log lines to USD with re.sub and a callable, counting replacements with subn
# value: {"lines": ["ERROR billing charge failed CARD_DECLINED amount=$48.60 (EUR 45.00) user=c3", "WARN  billing retry scheduled amount=$48.60 (EUR 45.00) user=c3", "ERROR billing charge failed INSUFFICIENT_FUNDS amount=$160.92 (EUR 149.00) user=c6"], "count": 3, "codes": 2}
# logs: ["replaced 3 amounts and 2 codes"]
import re

logs = await tools.fetch_logs(service="billing")
rate = await tools.get_exchange_rate(base="EUR", quote="USD")

def to_usd(match: re.Match) -> str:
    eur = float(match.group(1))
    return f"amount=${eur * rate:.2f} (EUR {match[1]})"

converted, count = re.subn(r"amount=(\d+(?:\.\d+)?)", to_usd, logs)
upper_codes, n_codes = re.subn(r"\b([a-z]+_[a-z]+)\b", lambda m: m.group(0).upper(), converted)
lines = upper_codes.splitlines()
print(f"replaced {count} amounts and {n_codes} codes")
return {"lines": [line[20:] for line in lines], "count": count, "codes": n_codes}
