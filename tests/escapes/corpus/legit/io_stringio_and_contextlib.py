# value: ["line1\nline2\n", "suppressed"]
import contextlib
import io
buffer = io.StringIO()
buffer.write("line1\n")
buffer.write("line2\n")
with contextlib.suppress(KeyError):
    {}["missing"]
return [buffer.getvalue(), "suppressed"]
