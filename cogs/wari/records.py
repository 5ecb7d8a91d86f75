"""Game records: ``/wari record`` (the record as a file) and ``/wari replay`` (step through it)."""

from __future__ import annotations

from .base import CogBase

#: This feature's persistent buttons (registered by the extension's setup).
BUTTONS: tuple = ()


class RecordCommands(CogBase):
    pass
