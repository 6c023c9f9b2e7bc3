# description: Parse billing errors from the logs, follow the user ids to customers, and notify them
# value: [{"to": "alan@example.com", "id": "ntf-1", "reason": "card_declined"}, {"to": "margaret@example.com", "id": "ntf-2", "reason": "insufficient_funds"}]
import re
text = await tools.fetch_logs(service="billing")
failures = []
for line in text.splitlines():
    m = re.search(r"ERROR billing charge failed (\w+) amount=([\d.]+) user=(c\d+)", line)
    if m:
        failures.append({"reason": m[1], "amount": float(m[2]), "customer": m[3]})
sent = []
for f in failures:
    c = await tools.get_customer(customer_id=f["customer"])
    r = await tools.send_notification(to=c["email"], message=f"Your payment of {f['amount']:.2f} EUR failed ({f['reason'].replace('_', ' ')}).")
    sent.append({"to": r["to"], "id": r["id"], "reason": f["reason"]})
return sent
