# description: Export the audit log at size and return only its header and the first 3 lines
# value: {"lines": 4701, "head": ["id,at,kind,customer_id,amount", "1,2024-06-10T07:13:00+00:00,logout,c6,0.0", "2,2024-06-10T14:26:00+00:00,login,c5,0.0", "3,2024-06-10T21:39:00+00:00,purchase,c4,111.99"], "bytes": 206930}
text = await tools.export_events(repeat=100)
lines = text.splitlines()
return {"lines": len(lines), "head": lines[:4], "bytes": len(text.encode())}
