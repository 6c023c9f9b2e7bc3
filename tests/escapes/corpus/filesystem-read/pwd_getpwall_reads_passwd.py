# category: filesystem-read
# signal: leak
# leak: root:/root|daemon:
# expect: refused
# tripwire: misses (pwd, already loaded in the zygote, reads /etc/passwd through NSS in C: no open event)
# source: pwd.getpwall() returns the host's account list (names, home directories) read from /etc/passwd by libc, which raises no audit event
import pwd
return [user.pw_name + ":" + user.pw_dir for user in pwd.getpwall()]
