"""Puzzles: a puzzle near your puzzle rating and a server's daily puzzle, solved with cup buttons.

The features in :mod:`.feature`, their commands' groups in :mod:`.commands`, their messages and
buttons in :mod:`.views` (the convention of every feature grown into a package; see
:mod:`cogs.wari.tournaments`).
"""
