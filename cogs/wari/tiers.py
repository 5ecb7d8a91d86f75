"""Rating-tier roles (issue 37): where a server turned them on (``/wari-mod roles tiers:``), each
player of a rated game that ends there is given the role of the band their rating is in now (a
band of ``tier_step`` points of the wari rating: 1400–1599, 1600–1799 ...) and loses the role of
any other band. The bot makes a band's role the first time someone enters the band, and keeps its
id: a moderator may rename it, move it or colour it. No other role of a member is ever touched.

Turning the tiers on, or giving the bands a new width, also hands the bands' roles to the
server's rated players at once (those of its wari leaderboard), in the background: one player
every :data:`PACE` seconds, so that hundreds of players never fire hundreds of calls together
(discord.py waits out a rate limit, but a server's role changes share one), a member who left
skipped. The players' part is not resumed after a restart: each player's next rated game gives
them their band's role anyway.

The bands' roles are the bot's own (it made each one; ``tier_roles`` holds no other). A new width
or the tiers stopped leaves the old bands' roles fitting nothing: the same write that changes the
width marks them retired in the database, and the bot deletes them, first thing in the
background: deleting a role takes it from every member in one call, those who left the
leaderboard too. A retired role's row goes only once Discord has deleted it, so one left behind
by a restart, a second change or Discord's refusal is deleted at the next start or change. One
it cannot delete (without Manage Roles, or moved above the bot's own role) is named to the
moderator, who may delete it. The bot never deletes any other role.

A server's changes run one at a time, and each stops the hand-out of the one before.

It needs the **Manage Roles** permission (``/wari-mod roles`` refuses to turn the tiers on
without it) and the bands' roles below the bot's own: a refusal after that is logged, and the
next rated game tries again. The game's end stands whatever happens here.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import discord

from bot.i18n import _, n_
from bot.names import markdown_name
from bot.service import Table
from bot.service.roles import RoleService, band_of, tier_ratings
from bot.storage import StorageError
from bot.storage.rows import SERVER

from .languages import Languages

log = logging.getLogger("cogs.wari")

#: What the server's audit log says of the bot's changes to members' tier roles.
REASON = "Wari rating-tier roles"
#: Seconds between two players (or two old roles) of a hand-out: each costs Discord up to three calls.
PACE = 1.0
#: The most roles an answer names (their names may be long; an answer holds 2,000 characters).
MOST_NAMED = 12


@dataclass(frozen=True)
class TierChange:
    """What a change of the tiers set going: how many players get their band's role, which old
    bands' roles the bot deletes and which ones it cannot (their names)."""

    players: int = 0
    deleting: tuple[str, ...] = ()
    left: tuple[str, ...] = ()

    def notes(self) -> list[str]:
        """The change as the moderator reads it, in the current language."""
        notes = []
        if self.players:
            notes.append(
                n_(
                    "I'm giving the {count} rated player of this server the role of their band, in the "
                    "background (about one a second).",
                    "I'm giving the {count} rated players of this server the role of their band, in the "
                    "background (about one a second).",
                    self.players,
                    count=self.players,
                )
            )
        if self.deleting:
            notes.append(_("I'm deleting the roles I made for the old bands: {roles}.", roles=listed(self.deleting)))
        if self.left:
            notes.append(
                _(
                    "I cannot delete these roles I made for the old bands (they are above my own highest role, "
                    "or I lack **Manage Roles**): {roles}. You may delete them in Server Settings → Roles.",
                    roles=listed(self.left),
                )
            )
        return notes


def names(roles: Iterable[discord.Role]) -> tuple[str, ...]:
    return tuple(f"**{markdown_name(role.name)}**" for role in roles)


def listed(roles: tuple[str, ...]) -> str:
    """The names ``roles`` in a sentence: the first :data:`MOST_NAMED` of them and how many more."""
    shown = ", ".join(roles[:MOST_NAMED])
    more = len(roles) - MOST_NAMED
    return shown if more <= 0 else shown + " " + _("and {count} more", count=more)


def can_delete(guild: discord.Guild, role: discord.Role) -> bool:
    return guild.me.guild_permissions.manage_roles and role < guild.me.top_role


async def member_of(guild: discord.Guild, user_id: int) -> discord.Member | None:
    """The member ``user_id`` of ``guild`` (``None``: they left it)."""
    try:
        return guild.get_member(user_id) or await guild.fetch_member(user_id)
    except discord.NotFound:
        return None


class TierRoles:
    """Keeps the players' tier roles in step with their ratings: after each rated game, and for
    the whole leaderboard when the bands change."""

    def __init__(self, client: discord.Client, roles: RoleService, languages: Languages) -> None:
        self.client = client
        self.roles = roles
        self.languages = languages
        #: Each server's hand-out under way.
        self.handing_out: dict[int, asyncio.Task[None]] = {}
        #: A server's changes one at a time: two moderators at once, the second waits for the first.
        self.changing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        #: Two players of a server entering a new band at once are given one role, not two (each
        #: server's own: a slow role made in one server holds up no other).
        self.making: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        #: The start's deletion of the retired bands' roles left by the process before.
        self.resuming: asyncio.Task[None] | None = None

    def resume(self) -> None:
        """After a start, in the background: delete the retired bands' roles a process before
        did not get to (it stopped, or Discord refused)."""
        self.resuming = asyncio.get_running_loop().create_task(self.delete_left_over(), name="wari-tiers-resume")

    async def delete_left_over(self) -> None:
        await self.client.wait_until_ready()
        try:
            retired = await self.roles.retired_roles()
        except StorageError as exc:
            log.warning("could not read the retired tier roles to delete: %s", exc)
            return
        for guild_id, role_ids in retired.items():
            if self.client.get_guild(guild_id) is None:
                continue  # another process's server, or one the bot left
            async with self.changing[guild_id]:
                if guild_id not in self.handing_out:  # else a change, just made, deletes them
                    self.start(guild_id, role_ids, players=False)

    async def game_ended(self, table: Table) -> None:
        """After a game's end: its players' tier roles, where its server keeps them."""
        row = table.row
        guild = self.client.get_guild(row.guild_id) if row.venue == SERVER and row.rated > 0 else None
        if guild is None or (await self.roles.server_roles(guild.id)).tier_step is None:
            return
        if not guild.me.guild_permissions.manage_roles:
            log.warning("server %s keeps rating-tier roles, but I lack Manage Roles there", guild.id)
            return
        for user_id, points in tier_ratings(table.ratings).items():  # as the game's archiving saved them
            await self.place_logged(guild, user_id, points)

    async def change(self, guild: discord.Guild, step: int | None) -> TierChange:
        """Bands of ``step`` points (``None``: no tier roles): the old bands' roles retired if the
        width changed, and, in the background, deleted and every rated player given their band's role."""
        async with self.changing[guild.id]:
            await self.halt(guild.id)
            await self.roles.set_tier_step(guild.id, step)
            retired_ids = (await self.roles.server_roles(guild.id)).retired
            retired = [role for role in map(guild.get_role, retired_ids) if role is not None]
            deletable = [role for role in retired if can_delete(guild, role)]
            left = [role for role in retired if role not in deletable]
            players = await self.roles.count_tier_players(guild.id) if step is not None else 0
            if retired_ids or players:
                self.start(guild.id, list(retired_ids), players=step is not None)
            return TierChange(players, names(deletable), names(left))

    def start(self, guild_id: int, retired: list[int], *, players: bool) -> None:
        work = self.hand_out(guild_id, retired, players=players)
        self.handing_out[guild_id] = asyncio.get_running_loop().create_task(work, name=f"wari-tiers-{guild_id}")

    async def halt(self, guild_id: int) -> None:
        """Stop the server's hand-out under way, if any (the bands are about to change)."""
        task = self.handing_out.pop(guild_id, None)
        if task is not None:
            task.cancel()
            await asyncio.wait([task])

    async def stop(self) -> None:
        """The cog goes: every hand-out stops, and is over before the database closes (the retired
        roles are deleted at the next start, the players placed at their next rated games)."""
        tasks = [*self.handing_out.values(), *([self.resuming] if self.resuming is not None else [])]
        self.handing_out.clear()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)

    async def hand_out(self, guild_id: int, retired: list[int], *, players: bool) -> None:
        """The background work of :meth:`change`: delete the retired bands' roles, then (``players``)
        give each rated player the role of the band their rating is in now, :data:`PACE` seconds apart."""
        try:
            for role_id in retired:
                if await self.delete_retired(guild_id, role_id):
                    await asyncio.sleep(PACE)
            if players:
                await self.place_all(guild_id)
        except Exception:
            log.exception("handing out the tier roles of server %s failed", guild_id)
        finally:
            if self.handing_out.get(guild_id) is asyncio.current_task():
                del self.handing_out[guild_id]

    async def delete_retired(self, guild_id: int, role_id: int) -> bool:
        """Delete a retired band's role, forgotten once Discord no longer has it; one Discord
        refuses waits for the next change or start (logged; the others go on). Whether Discord was asked."""
        guild = self.client.get_guild(guild_id)
        role = guild.get_role(role_id) if guild is not None else None
        if guild is None or (role is not None and not can_delete(guild, role)):
            return False  # the moderator was named it, to delete by hand
        if role is not None:
            try:
                await role.delete(reason=REASON)
            except discord.NotFound:
                pass  # deleted meanwhile
            except discord.HTTPException as exc:
                log.warning("could not delete the old tier role %s of server %s: %s", role_id, guild_id, exc)
                return True
        await self.roles.forget_retired_role(guild_id, role_id)
        return role is not None

    async def place_all(self, guild_id: int) -> None:
        """Give each of the server's rated players the role of their band, :data:`PACE` seconds apart."""
        async for user_id in self.roles.tier_players(guild_id):
            guild = self.client.get_guild(guild_id)
            if guild is None or not guild.me.guild_permissions.manage_roles:
                log.warning("stopped handing out the tier roles of server %s: I lack Manage Roles", guild_id)
                return
            await self.place_logged(guild, user_id, await self.roles.tier_points(user_id))
            await asyncio.sleep(PACE)

    async def place_logged(self, guild: discord.Guild, user_id: int, points: int) -> None:
        """:meth:`place`, Discord's refusal logged (the player's next rated game tries again)."""
        try:
            await self.place(guild, user_id, points)
        except discord.HTTPException as exc:
            log.warning("could not set the tier role of user %s in server %s: %s", user_id, guild.id, exc)

    async def place(self, guild: discord.Guild, user_id: int, points: int) -> None:
        """Give ``user_id`` the role of the band of ``points``, and take away the other bands'."""
        member = await member_of(guild, user_id)
        role = await self.band_role(guild, points) if member is not None else None
        if member is None or role is None:
            return  # left the server, or the tiers were stopped meanwhile
        bands = set((await self.roles.server_roles(guild.id)).tiers.values())
        other_bands = [held for held in member.roles if held.id in bands and held.id != role.id]
        if other_bands:
            await member.remove_roles(*other_bands, reason=REASON)
        if role not in member.roles:
            await member.add_roles(role, reason=REASON)

    async def band_role(self, guild: discord.Guild, points: int) -> discord.Role | None:
        """The role of the band of ``points``, made (and noted) if it has none, or lost it
        (``None``: the server keeps no tier roles any more)."""
        async with self.making[guild.id]:
            settings = await self.roles.server_roles(guild.id)
            if settings.tier_step is None:
                return None
            lowest = band_of(points, settings.tier_step)
            role = guild.get_role(settings.tiers.get(lowest, 0))
            if role is None:
                async with self.languages.public(guild.id):
                    name = _("Wari {low}–{high}", low=lowest, high=lowest + settings.tier_step - 1)
                role = await guild.create_role(name=name, reason=REASON)
                await self.roles.set_tier_role(guild.id, lowest, role.id)
            return role
