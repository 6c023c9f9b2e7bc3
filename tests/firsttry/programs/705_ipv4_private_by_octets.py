# description: Classify client IPv4 addresses as private or public by their octets
# value: {"private": ["10.0.0.12", "192.168.1.40", "172.16.5.4"], "public": ["8.8.8.8", "172.32.0.1", "1.1.1.1"], "log_lines": 9}
def is_private(ip):
    a, b, c, d = map(int, ip.split("."))
    return a == 10 or a == 127 or (a == 172 and 16 <= b <= 31) or (a == 192 and b == 168)

clients = ["10.0.0.12", "192.168.1.40", "8.8.8.8", "172.16.5.4", "172.32.0.1", "1.1.1.1"]
logs = await tools.fetch_logs(service="api")
return {"private": [c for c in clients if is_private(c)],
        "public": [c for c in clients if not is_private(c)], "log_lines": len(logs.splitlines())}
