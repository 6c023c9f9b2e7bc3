# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# expect: refused
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: ignoring the polite signals so that only SIGKILL works
import signal
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGINT, signal.SIG_IGN)
while True:
    pass
