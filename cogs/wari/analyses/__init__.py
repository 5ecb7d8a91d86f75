"""Analyses: the computer's analysis of a finished game, asked for with ``/wari analyse`` or the
Analyse button.

The feature in :mod:`.feature`, its messages and its button in :mod:`.views` (the convention of
every feature grown into a package; see :mod:`cogs.wari.tournaments`).
"""
