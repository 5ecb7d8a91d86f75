"""Fixtures shared by the cog stories.

SimCord sends every command and press as a server install's (``authorizing_integration_owners:
{}``, context 0 in a server): :func:`user_installed` wraps its payload builder so that discord.py
sees what Discord sends for an app installed to a user alone, used where the bot is no member
(a server that did not add it, or a group DM)."""

from __future__ import annotations

from dataclasses import dataclass

import discord
import pytest
import simcord.interactions
from simcord.backend import serializers

#: Discord's ``authorizing_integration_owners`` key of a user install.
USER_INSTALL = "1"
#: Discord's interaction context of a group DM (``PRIVATE_CHANNEL``).
GROUP_DM_CONTEXT = 2
#: The Discord channel types of a DM between two people and of a group DM.
DM_TYPE, GROUP_DM_TYPE = 1, 3


@dataclass
class UserInstall:
    """How the interactions of a story arrive: authorised by their user's install alone; in a
    group DM (``group_dm``: the server channel SimCord runs them in, shown to discord.py as a group
    DM of ``recipients``, without its server); ``external_apps``: whether the server lets its
    members' own apps answer for everyone (Use External Apps, on by default in Discord);
    ``active``: off, the interactions arrive as SimCord sends them (a server install's), as in a
    server that added the bot, for a story that plays there first."""

    group_dm: bool = False
    recipients: tuple[int, ...] = ()
    #: With ``group_dm``: shown as a DM between two people (its ``recipients``), not a group DM.
    two_people: bool = False
    external_apps: bool = True
    active: bool = True


def as_group_dm(backend, payload: dict, recipients: tuple[int, ...], channel_type: int = GROUP_DM_TYPE) -> None:
    """Make a server channel's payload read as a group DM's (or, by ``channel_type``, a DM's
    between two people): no server, the user as a user."""
    member = payload.pop("member", None)
    if member is not None:
        payload["user"] = member["user"]
    payload.pop("guild_id", None)
    payload.pop("guild_locale", None)
    payload["app_permissions"] = "0"
    channel = payload["channel"]
    payload["channel"] = {
        "id": channel["id"],
        "type": channel_type,
        "name": None,
        "owner_id": str(recipients[0]),
        "recipients": [dict(serializers.user_payload(backend.get_user(user))) for user in recipients],
        "last_message_id": channel.get("last_message_id"),
    }


@pytest.fixture
def user_installed(monkeypatch) -> UserInstall:
    """Every interaction of the story as authorised by its user's install alone (see :class:`UserInstall`)."""
    install = UserInstall()
    built = simcord.interactions.base_payload

    def as_user_install(backend, **fields):
        record, payload = built(backend, **fields)
        if not install.active:
            return record, payload
        payload["authorizing_integration_owners"] = {USER_INSTALL: str(fields["user_id"])}
        if "member" in payload and install.external_apps:
            granted = int(payload["member"]["permissions"]) | discord.Permissions(use_external_apps=True).value
            payload["member"]["permissions"] = str(granted)
        if install.group_dm:
            payload["context"] = GROUP_DM_CONTEXT
            as_group_dm(backend, payload, install.recipients, DM_TYPE if install.two_people else GROUP_DM_TYPE)
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", as_user_install)
    return install
