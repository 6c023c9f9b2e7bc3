# category: module-attributes
# signal: leak
# leak: [0-9a-f]{32}
# expect: refused
# tripwire: harmless (judged with the language layer on)
# source: pyjail library route: hashlib.file_digest and hashlib.new with a program object claiming a descriptor
import hashlib
class F:
    def fileno(self):
        return 0
    def readinto(self, b):
        return 0
return hashlib.file_digest(F(), "md5").hexdigest()
