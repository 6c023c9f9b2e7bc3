# description: Write a plain-text weekly report
# value: {"report": "Weekly report\n=============\nAda Lovelace: 3 orders, 2 open\nKatherine Johnson: 2 orders, 1 open\n", "length": 95}
import io

out = io.StringIO()
out.write("Weekly report\n")
out.write("=" * 13 + "\n")
for cid in ("c1", "c4"):
    c = await tools.get_customer(customer_id=cid)
    orders = await tools.list_orders(customer_id=cid)
    open_ = [o for o in orders if o["status"] in {"pending", "shipped"}]
    out.write(f"{c['name']}: {len(orders)} orders, {len(open_)} open\n")

report = out.getvalue()
return {"report": report, "length": len(report)}
