"""``python -m codemode``: the same command as the ``codemode`` console script."""

from .cli import main

main(prog_name="codemode")
