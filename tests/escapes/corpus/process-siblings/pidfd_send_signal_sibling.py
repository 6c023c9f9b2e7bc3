# category: process-siblings
# signal: victim
# expect: refused
# plain: as-nobody (the attack is on a process of the same unprivileged uid)
# tripwire: misses (os.pidfd_open and signal.pidfd_send_signal raise no audit event)
# source: a process descriptor for another process of the same uid, then SIGKILL through it (pidfd_open, pidfd_send_signal), past os.kill
import os
import signal
descriptor = os.pidfd_open({VICTIM_PID})
signal.pidfd_send_signal(descriptor, signal.SIGKILL)
