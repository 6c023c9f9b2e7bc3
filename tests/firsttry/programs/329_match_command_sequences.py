# description: Execute a small list of support-desk instructions written as text commands
# value: ["cancelled o-1005 refund 70.50", "cannot cancel: tool \"cancel_order\" raised ValueError: order o-1001 is delivered and cannot be cancelled", "c3 tags=churn-risk,beta", "1 EUR = 169.5 JPY", "1 GBP = 1.270588 USD", "Ada Lovelace", "no customer nobody@example.com", "KB-01=14, LP-14=3", "(empty)", "unknown verb 'teleport'"]
# logs: ["cancel o-1005 duplicate order  => cancelled o-1005 refund 70.50", "cancel o-1001                  => cannot cancel: tool \"cancel_order\" raised ValueError: order o-1001 is delivered and cannot be cancelled", "tag c3 churn-risk beta         => c3 tags=churn-risk,beta", "rate eur to jpy                => 1 EUR = 169.5 JPY", "rate gbp usd                   => 1 GBP = 1.270588 USD", "whois ADA@example.com          => Ada Lovelace", "whois nobody@example.com       => no customer nobody@example.com", "stock KB-01 LP-14              => KB-01=14, LP-14=3", "<blank>                        => (empty)", "teleport c1                    => unknown verb 'teleport'"]
async def run(line: str) -> str:
    match line.split():
        case ["cancel", order_id, *reason] if order_id.startswith("o-"):
            try:
                r = await tools.cancel_order(order_id=order_id, reason=" ".join(reason) or "customer request")
                return f"cancelled {r['order_id']} refund {r['refund']:.2f}"
            except ToolCallError as e:
                return f"cannot cancel: {e}"
        case ["tag", cid, *tags] if tags:
            c = await tools.tag_customer(customer_id=cid, tags=tags)
            return f"{cid} tags={','.join(c['tags'])}"
        case ["rate", base, "to", quote] | ["rate", base, quote]:
            return f"1 {base.upper()} = {await tools.get_exchange_rate(base=base.upper(), quote=quote.upper())} {quote.upper()}"
        case ["whois", email] if "@" in email:
            c = await tools.find_customer(email=email)
            return c["name"] if c else f"no customer {email}"
        case ["stock", *skus] if skus:
            levels = [await tools.get_stock(sku=s) for s in skus]
            return ", ".join(f"{s}={n}" for s, n in zip(skus, levels))
        case []:
            return "(empty)"
        case [verb, *_]:
            return f"unknown verb {verb!r}"

script = """cancel o-1005 duplicate order
cancel o-1001
tag c3 churn-risk beta
rate eur to jpy
rate gbp usd
whois ADA@example.com
whois nobody@example.com
stock KB-01 LP-14

teleport c1"""
out = [await run(l) for l in script.splitlines()]
for l, o in zip(script.splitlines(), out):
    print(f"{l or '<blank>':<30} => {o}")
return out
