# description: Classify client addresses from a list with the ipaddress module
# value: {"private": ["10.0.0.12", "192.168.1.40", "172.16.5.4"], "public": ["8.8.8.8", "1.1.1.1"]}
# limitation: the ipaddress module is not available in run_code; the refusal says to compare the address's numbers
import ipaddress

clients = ["10.0.0.12", "192.168.1.40", "8.8.8.8", "172.16.5.4", "1.1.1.1"]
private = [c for c in clients if ipaddress.ip_address(c).is_private]
public = [c for c in clients if not ipaddress.ip_address(c).is_private]
return {"private": private, "public": public}
