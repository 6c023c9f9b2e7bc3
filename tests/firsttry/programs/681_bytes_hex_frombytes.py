# description: Pack order ids into bytes, hex-dump them and read them back
# value: {"hex": "03:f1:03:f2:03:f3", "back": [1009, 1010, 1011], "b32": "APYQH4QD6M======", "fromhex": [3, 241, 3, 242], "buf_len": 8, "xor": "59ab59a859a9"}
import base64

orders = await tools.list_orders(customer_id="c6")
ids = [int(o["id"].split("-")[1]) for o in orders]
packed = b"".join(i.to_bytes(2, "big") for i in ids)
back = [int.from_bytes(packed[i:i + 2], "big") for i in range(0, len(packed), 2)]
buf = bytearray(packed)
buf.extend(b"\x00\xff")
return {
    "hex": packed.hex(":"),
    "back": back,
    "b32": base64.b32encode(packed).decode(),
    "fromhex": list(bytes.fromhex("03 f1 03 f2")),
    "buf_len": len(buf),
    "xor": bytes(a ^ 0x5A for a in packed).hex(),
}
