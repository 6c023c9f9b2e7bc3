# category: network
# signal: canary
# expect: refused
# tripwire: stops import xmlrpc.client
# source: variant of http_client_connect: an XML-RPC proxy posts over http.client
import xmlrpc.client
try:
    xmlrpc.client.ServerProxy("http://127.0.0.1:{CANARY_PORT}/").ping()
except Exception:
    pass
