# category: facade-bypass
# signal: leak
# leak: <function _(GenericAlias|SpecialGenericAlias)\.copy_with at
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure, judged with the language layer on)
# source: type() of typing.List[int] and of typing.List gives typing's alias classes, which no façade lists; their public Python methods, read from the class, came back raw and ran with any self (here another alias class's instance)
import typing
A = type(typing.List[int])
S = type(typing.List)
return repr(A.copy_with) + " " + repr(S.copy_with) + " " + repr(S.copy_with(typing.Callable[[int], int], (str,)))
