# category: network
# signal: canary
# expect: refused
# source: a mail client opens its own socket
import smtplib
smtplib.SMTP("127.0.0.1", {CANARY_PORT}, timeout=1)
