# category: dynamic-code
# signal: liveness
# expect: refused
# plain: skip (starts a pager)
# tripwire: stops import pydoc
# source: help() imports pydoc and may start a pager process
help(len)
