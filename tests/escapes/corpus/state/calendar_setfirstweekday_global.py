# category: state
# signal: state
# expect: refused
# tripwire: harmless (module state lives only in this child)
# source: pyjail state trick: changing a library module's global setting through its own setter
import calendar
calendar.setfirstweekday(3)
return calendar.firstweekday()
