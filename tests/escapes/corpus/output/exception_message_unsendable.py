# category: output
# signal: liveness bounded
# kinds: exception
# plain: skip (checks the sandbox's failure messages)
# tripwire: harmless (the child escapes its failure message and cuts it to the value cap)
# source: an exception message holding lone surrogates (no UTF-8 form) and longer than the protocol's frame cap: the child sent it whole, so the run ended as worker-exit (its runtime failed encoding the text, or the host refused the frame) instead of the program's own failure; a traceback past the value cap alone ended as output-limit with all of it lost
class Odd(Exception):
    pass
raise Odd("\ud800" + chr(0xDFFF) + "x" * 2_000_000 + "\udcff")
