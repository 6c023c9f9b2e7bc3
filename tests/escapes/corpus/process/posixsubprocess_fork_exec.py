# category: process
# signal: marker
# expect: refused
# tripwire: misses (_posixsubprocess.fork_exec raises no audit event and the module is already loaded, so its import raises none either)
# source: variant of subprocess_run: the C helper behind Popen, called directly, starts a process with no audit event
import _posixsubprocess, os
read_end, write_end = os.pipe()
pid = _posixsubprocess.fork_exec(
    [b"/bin/sh", b"-c", b"touch {MARKER_PATH}"], [b"/bin/sh"], True, (write_end,), None, None,
    -1, -1, -1, -1, -1, -1, read_end, write_end, True, False, -1, None, None, None, -1, None, False,
)
os.close(write_end)
os.read(read_end, 100)
os.waitpid(pid, 0)
