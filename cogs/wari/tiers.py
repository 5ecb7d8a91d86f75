"""Rating-tier roles (issue 37): where a server turned them on (``/wari-mod roles tiers:``), each
player of a rated game that ends there is given the role of the band their rating is in now (a
band of ``tier_step`` points of the wari rating: 1400–1599, 1600–1799 ...) and loses the role of
any other band. The bot makes a band's role the first time someone enters the band, and keeps its
id: a moderator may rename it, move it or colour it. No other role of a member is ever touched.

It needs the **Manage Roles** permission (``/wari-mod roles`` refuses to turn the tiers on
without it) and the bands' roles below the bot's own: a refusal after that is logged, and the
next rated game tries again. The game's end stands whatever happens here.
"""

from __future__ import annotations

import logging

import discord

from bot.i18n import _
from bot.service import Table
from bot.service.roles import RoleService, band_of
from bot.storage.rows import SERVER

from .languages import Languages

log = logging.getLogger("cogs.wari")

#: What the server's audit log says of the bot's changes to members' tier roles.
REASON = "Wari rating-tier roles"


class TierRoles:
    """Keeps the players' tier roles in step with their ratings after each rated game."""

    def __init__(self, client: discord.Client, roles: RoleService, languages: Languages) -> None:
        self.client = client
        self.roles = roles
        self.languages = languages

    async def game_ended(self, table: Table) -> None:
        """After a game's end: its players' tier roles, where its server keeps them."""
        row = table.row
        guild = self.client.get_guild(row.guild_id) if row.venue == SERVER and row.rated > 0 else None
        if guild is None or (await self.roles.server_roles(guild.id)).tier_step is None:
            return
        if not guild.me.guild_permissions.manage_roles:
            log.warning("server %s keeps rating-tier roles, but I lack Manage Roles there", guild.id)
            return
        for user_id, points in (await self.roles.tier_ratings(row.id)).items():
            try:
                await self.place(guild, user_id, points)
            except discord.HTTPException as exc:
                log.warning("could not set the tier role of user %s in server %s: %s", user_id, guild.id, exc)

    async def place(self, guild: discord.Guild, user_id: int, points: int) -> None:
        """Give ``user_id`` the role of the band of ``points``, and take away the other bands'."""
        try:
            member = guild.get_member(user_id) or await guild.fetch_member(user_id)
        except discord.NotFound:
            return  # left the server
        role = await self.band_role(guild, points)
        bands = set((await self.roles.server_roles(guild.id)).tiers.values())
        other_bands = [held for held in member.roles if held.id in bands and held.id != role.id]
        if other_bands:
            await member.remove_roles(*other_bands, reason=REASON)
        if role not in member.roles:
            await member.add_roles(role, reason=REASON)

    async def band_role(self, guild: discord.Guild, points: int) -> discord.Role:
        """The role of the band of ``points``, made (and noted) if it has none, or lost it."""
        settings = await self.roles.server_roles(guild.id)
        assert settings.tier_step is not None  # checked by the caller
        lowest = band_of(points, settings.tier_step)
        role = guild.get_role(settings.tiers.get(lowest, 0))
        if role is None:
            async with self.languages.public(guild.id):
                name = _("Wari {low}–{high}", low=lowest, high=lowest + settings.tier_step - 1)
            role = await guild.create_role(name=name, reason=REASON)
            await self.roles.set_tier_role(guild.id, lowest, role.id)
        return role
