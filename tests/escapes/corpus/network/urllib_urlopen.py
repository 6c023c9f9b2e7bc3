# category: network
# signal: canary
# expect: refused
# tripwire: stops import urllib.request
# source: HTTP client through urllib
import urllib.request
urllib.request.urlopen("http://127.0.0.1:{CANARY_PORT}/", timeout=1)
