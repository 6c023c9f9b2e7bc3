# category: dynamic-code
# signal: liveness
# expect: refused
# plain: skip (starts a pager)
# source: help() imports pydoc and may start a pager process
help(len)
