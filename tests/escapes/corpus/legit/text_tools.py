# value: ["aGVsbG8=", "hello world\nagain", "Hello World", "LATIN SMALL LETTER A"]
import base64
import string
import textwrap
import unicodedata
return [base64.b64encode(b"hello").decode(), textwrap.fill("hello world again", width=11), string.capwords("hello world"), unicodedata.name("a")]
