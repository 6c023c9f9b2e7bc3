# value: [["NotFound", "no such key: b", "b", true], ["age: must be positive", "age", ["age", "must be positive"]], ["Retryable", true], [1, "ValueError", 3]]
class AppError(Exception):
    """Base class of the program's errors."""
class NotFound(AppError):
    def __init__(self, key):
        super().__init__(f"no such key: {key}")
        self.key = key
class BadInput(ValueError):
    def __init__(self, field, reason="invalid"):
        super().__init__(field, reason)
        self.field = field
        self.reason = reason
    def __str__(self):
        return f"{self.field}: {self.reason}"
class Retryable(AppError, TimeoutError):
    pass
def lookup(table, key):
    try:
        return table[key]
    except KeyError as error:
        raise NotFound(key) from error
out = []
try:
    lookup({"a": 1}, "b")
except AppError as error:
    out.append([type(error).__name__, str(error), error.key, isinstance(error, Exception)])
try:
    raise BadInput("age", "must be positive")
except ValueError as error:
    out.append([str(error), error.field, list(error.args)])
try:
    raise Retryable("slow")
except TimeoutError as error:
    out.append([type(error).__name__, issubclass(Retryable, AppError)])
errors = []
for value in ["1", "x", "3"]:
    try:
        errors.append(int(value))
    except ValueError as error:
        errors.append(type(error).__name__)
out.append(errors)
return out
