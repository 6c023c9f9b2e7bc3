# category: check-then-use
# signal: leak
# leak: members: .*gi_frame
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the case records that a member name refused in a class body is refused by the functional API too)
# source: a class body refuses the reserved names of interpreter internals (gi_frame, f_back, tb_frame, ...) because native readers look them up by name, but the enum functional API checked only that a member name is an exact str not starting with "_", so a class got attributes under names the compiler never lets a program define
import enum
try:
    E = enum.Enum("E", [("gi_frame", 1), ("f_back", 2), ("a", 3)])
    print("members:", [member.name for member in E])
except ValueError:
    print("refused")
