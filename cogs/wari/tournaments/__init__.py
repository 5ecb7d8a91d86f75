"""Tournaments: an event's sign-up, rounds, standings and podium, on Discord.

Like every feature grown into a package, its parts are named by their role: the feature players
use in :mod:`.feature` (join, leave, standings, results, list; the Join/Leave buttons), its
commands' groups in :mod:`.commands`, its messages and buttons in :mod:`.views`; beside them the
moderators' side (:mod:`.moderation`) and the events moving on by themselves (:mod:`.runs`).
The package itself imports none of them: importing one part does not load the others.
"""
