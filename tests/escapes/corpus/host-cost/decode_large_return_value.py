# category: host-cost
# signal: host liveness bounded
# kinds: ok
# plain: skip (checks the host's decode work)
# tripwire: harmless (the host's work budgets hold in every mode; the program needs no watched event)
# source: a return value of many small items just under max_value_bytes: the host decoded and checked it on its event loop
return [0] * 80_000
