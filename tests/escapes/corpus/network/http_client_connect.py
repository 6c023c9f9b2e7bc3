# category: network
# signal: canary
# expect: refused
# tripwire: stops import http.client
# source: HTTP client through http.client
import http.client
http.client.HTTPConnection("127.0.0.1", {CANARY_PORT}, timeout=1).connect()
