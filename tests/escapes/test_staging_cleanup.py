"""The escape runner removes what its programs left, whatever they left.

Programs run without the layers (the ablation modes, plain CPython) can shape
the temporary folder the runner gives them: a tree deeper than the recursion
limit made ``shutil.rmtree`` raise ``RecursionError`` (which ``ignore_errors``
does not cover) as the runner cleaned up, ending the whole run.
"""

from __future__ import annotations

import os
import sys

from codemode.escapes._runner import _private_tempdir


def test_the_private_tempdir_is_removed_however_deep_its_tree() -> None:
    levels = sys.getrecursionlimit() + 200
    with _private_tempdir() as root:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            for _ in range(levels):
                os.mkdir("d", dir_fd=fd)
                below = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
                os.close(fd)
                fd = below
            os.symlink("/", "out", dir_fd=fd)  # never followed
        finally:
            os.close(fd)
    assert not root.exists()
