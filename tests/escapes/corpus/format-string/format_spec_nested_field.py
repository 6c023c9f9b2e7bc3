# category: format-string
# signal: leak
# leak: <class 'type'>|<class 'object'>
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: pyjail format-spec trick: a replacement field inside the spec walks attributes
return "{0!r:{0.__class__.__base__}}".format(1)
