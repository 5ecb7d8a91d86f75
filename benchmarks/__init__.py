"""Benchmarks of the bot and its engine: tools for measuring, not part of the running bot.

Run them from the repository's root, as modules (``python -m benchmarks.bench``) or as scripts
(``python benchmarks/backends.py``): each reads the bot from the ``bot`` package beside them.
"""
