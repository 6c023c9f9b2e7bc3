# category: state
# signal: state
# expect: refused
# tripwire: harmless (module state lives only in this child)
# source: changing the process-wide decimal template every new context copies, through the signal dict a program may write on its own contexts
import decimal
decimal.DefaultContext.traps[decimal.Inexact] = True
return decimal.Context().traps[decimal.Inexact]
