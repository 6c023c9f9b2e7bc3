# category: output
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: the child formats an uncaught exception for the host after the event loop has closed, and its traceback renderer calls the exception's own __str__; the program's __str__, run from the runtime's renderer, walks its traceback to a frame and its builtins, as if the renderer's exemptions covered it
class Loud(Exception):
    def __str__(self):
        frame = self.__traceback__.tb_frame
        frame.f_builtins["__import__"]("os").system("touch {MARKER_PATH}")
        return "loud"
raise Loud()
