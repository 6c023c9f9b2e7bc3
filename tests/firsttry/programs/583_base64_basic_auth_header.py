# description: Build HTTP basic-auth headers for each enterprise customer with base64
# value: {"headers": {"c1": "Basic YzE6YWRhQGV4YW1wbGUuY29t", "c6": "Basic YzY6bWFyZ2FyZXRAZXhhbXBsZS5jb20="}, "decoded": "c1:ada@example.com"}
from base64 import b64encode, b64decode

customers = await tools.list_customers(tier="enterprise")
headers = {}
for c in customers:
    creds = f"{c['id']}:{c['email']}".encode("utf-8")
    headers[c["id"]] = "Basic " + b64encode(creds).decode("ascii")
first = next(iter(headers.values())).removeprefix("Basic ")
return {"headers": headers, "decoded": b64decode(first).decode()}
