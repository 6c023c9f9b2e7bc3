# category: host-cost
# signal: host liveness bounded
# kinds: ok
# plain: skip (checks the host's decode work)
# tripwire: harmless (the host's work budgets hold in every mode; the program needs no watched event)
# source: a return value of one string whose every character JSON escapes (six bytes each), just under max_value_bytes: the host decodes and checks text six times the string's length
return "\x01" * 40_000
