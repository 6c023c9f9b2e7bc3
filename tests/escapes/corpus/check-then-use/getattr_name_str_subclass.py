# category: check-then-use
# signal: secret
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: the getattr guard checks the name with string methods; a str subclass whose startswith and endswith lie must not pass, or gi_frame, f_back and f_builtins are read through it
class Name(str):
    def startswith(self, prefix):
        return False
    def endswith(self, suffix):
        return False
def walk():
    frame = getattr(walker, Name("gi_frame"))
    while frame is not None:
        builtins = getattr(frame, Name("f_builtins"))
        if "exec" in builtins:
            yield builtins["open"]("{SECRET_PATH}").read()
            return
        frame = getattr(frame, Name("f_back"))
    yield "no host frame found"
walker = walk()
return next(walker)
