# description: Split long SMS messages into numbered segments by encoding and send them
# value: {"short": {"encoding": "GSM-7", "chars": 39, "utf8_bytes": 39, "segments": 1, "ids": ["ntf-1"], "max_len": 39}, "long": {"encoding": "GSM-7", "chars": 191, "utf8_bytes": 191, "segments": 2, "ids": ["ntf-2", "ntf-3"], "max_len": 152}, "unicode": {"encoding": "UCS-2", "chars": 104, "utf8_bytes": 112, "segments": 2, "ids": ["ntf-4", "ntf-5"], "max_len": 61}}
# logs: ["short    GSM-7   39 chars -> 1 segment(s)", "long     GSM-7  191 chars -> 2 segment(s)", "unicode  UCS-2  104 chars -> 2 segment(s)"]
import textwrap

GSM = set("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà")

def limits(text: str) -> tuple[str, int, int]:
    if all(ch in GSM for ch in text):
        return "GSM-7", 160, 153
    return "UCS-2", 70, 67

def segments(text: str) -> list[str]:
    encoding, single, multi = limits(text)
    if len(text) <= single:
        return [text]
    width = multi - len(" (9/9)")
    parts = textwrap.wrap(text, width=width, break_long_words=True)
    return [f"{p} ({i}/{len(parts)})" for i, p in enumerate(parts, 1)]

customer = await tools.get_customer(customer_id="c2")
orders = await tools.list_orders(customer_id="c2", status="pending")
messages = {
    "short": f"Hi {customer['name'].split()[0]}, your order {orders[0]['id']} is pending.",
    "long": (f"Hello {customer['name']}, we are writing about order {orders[0]['id']} placed on "
             f"{orders[0]['created']}. It contains " + ", ".join(f"{l['quantity']} x {l['name']}" for l in orders[0]["lines"])
             + f" for a total of {orders[0]['total']:.2f} {orders[0]['currency']}. Reply STOP to opt out of these updates."),
    "unicode": "Votre commande est prête 📦 — merci d'avoir choisi notre boutique, à bientôt pour de nouvelles aventures!",
}
sent = {}
for name, text in messages.items():
    parts = segments(text)
    encoding = limits(text)[0]
    receipts = [await tools.send_notification(to="+1-555-0102", message=p, channel="sms") for p in parts]
    sent[name] = {"encoding": encoding, "chars": len(text), "utf8_bytes": len(text.encode("utf-8")),
                  "segments": len(parts), "ids": [r["id"] for r in receipts],
                  "max_len": max(map(len, parts))}
    print(f"{name:<8} {encoding} {len(text):>4} chars -> {len(parts)} segment(s)")
return sent
