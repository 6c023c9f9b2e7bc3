# category: network
# signal: canary
# expect: refused
# tripwire: stops import smtplib
# source: a mail client opens its own socket
import smtplib
smtplib.SMTP("127.0.0.1", {CANARY_PORT}, timeout=1)
