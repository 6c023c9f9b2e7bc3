"""Runs model-written Python in a restricted, resource-limited child process."""
