"""Benchmarks of codemode, side by side with its peers: ``python -m benchmarks``.

The modules starting with ``_`` make up that command; the other scripts here
measure one part each (``python benchmarks/NAME.py``).
"""
