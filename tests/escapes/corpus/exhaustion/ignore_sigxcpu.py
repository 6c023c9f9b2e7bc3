# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# expect: refused
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: ignoring the CPU-limit signal so that only the hard limit or the wall clock ends the run
import signal
signal.signal(signal.SIGXCPU, signal.SIG_IGN)
while True:
    pass
