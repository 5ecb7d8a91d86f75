"""Roles that call players (issue 37): moderators choose the role pinged when a tournament opens
for sign-up and when it starts, and the role pinged when someone seeks a game (``/wari-mod
roles``); members give themselves those roles and take them back (``/wari notify``).

A call is a new message whose allowed mentions name that role alone (never @everyone, nobody
else), claimed in the database before it is posted (:mod:`bot.service.roles`): an event's calls
once each, a server's seek call at most once per cooldown. A call that fails is logged and never
stops what it announces (the seek waits, the event runs). The tournaments' code makes its calls
through :class:`RoleCalls` (:meth:`~RoleCalls.tournament_opened`, :meth:`~RoleCalls.tournament_started`).

Giving a role needs the bot's **Manage Roles** permission and a role below its own highest one:
without them, the member or moderator is told so. A role that members give themselves must grant
nothing that @everyone does not have already, or ``/wari notify`` would hand out powers.

Discord notifies a role's members only if the role is mentionable or the bot may **Mention
@everyone, @here and All Roles** in the channel. A role that neither allows is kept all the same
(the moderator may fix either side later), but ``/wari-mod roles`` says plainly, each time it is
shown, that its calls may notify nobody (unless the bot has the permission in their channel) and
how to fix it. A call whose role cannot be notified still goes out (its text says who is looking
for a game) and is logged once per channel, until a call there notifies again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

import discord
from discord import app_commands
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.i18n import N_, _
from bot.names import markdown_name
from bot.service import Refusal
from bot.service.roles import SEEK_CALL_COOLDOWN, RoleService
from bot.storage import SeekRow, TournamentRow
from bot.storage.settings import ServerRoles

from .languages import Languages
from .presenter import Message, Presenter
from .tiers import TierRoles

log = logging.getLogger("cogs.wari")

NEEDS_MANAGE_ROLES = N_(
    "I need the **Manage Roles** permission in this server to give roles. Ask a moderator to grant it."
)
ROLE_ABOVE_ME = N_(
    "I cannot give the role **{role}**: it is not below my own highest role. A moderator can move my "
    "role above it in Server Settings → Roles."
)
NO_CALL_ROLE = N_("This server has no role for these calls yet: a moderator can choose one with `/wari-mod roles`.")
CALL_CHOICES = [
    app_commands.Choice(name=N_("Tournaments"), value="tournaments"),
    app_commands.Choice(name=N_("Seeks"), value="seeks"),
]
STOP_CHOICES = [*CALL_CHOICES, app_commands.Choice(name=N_("Rating-tier roles"), value="tiers")]


def check_assignable(guild: discord.Guild, role: discord.Role) -> None:
    """Refuse, saying why, a role the bot cannot give or take away in ``guild``."""
    if not guild.me.guild_permissions.manage_roles:
        raise Refusal(NEEDS_MANAGE_ROLES)
    if role >= guild.me.top_role:
        raise Refusal(ROLE_ABOVE_ME, role=markdown_name(role.name))


def check_callable(guild: discord.Guild, role: discord.Role) -> None:
    """Refuse a role that cannot be a calling role: @everyone, a bot's or an integration's own, one
    granting more than @everyone has (members give it to themselves), or one the bot cannot give."""
    if role.is_default() or role.managed:
        raise Refusal(N_("**{role}** cannot be given by hand: choose a role of your own."), role=role.name)
    if role.permissions.value & ~guild.default_role.permissions.value:
        raise Refusal(
            N_(
                "Members give themselves this role with `/wari notify`, so it must grant no permission that "
                "@everyone lacks; **{role}** does. Choose or make a role without permissions."
            ),
            role=markdown_name(role.name),
        )
    check_assignable(guild, role)


def notifies(guild: discord.Guild, role: discord.Role, channel_id: int | None = None) -> bool:
    """Whether the bot's mention of ``role`` notifies its members (in ``channel_id``, or across the
    server): Discord notifies a role only if it is mentionable or the sender may mention them all."""
    place = guild.get_channel_or_thread(channel_id) if channel_id is not None else None
    permissions = place.permissions_for(guild.me) if place is not None else guild.me.guild_permissions
    return role.mentionable or permissions.mention_everyone


def only_role(role_id: int) -> discord.AllowedMentions:
    """A call notifies the members of one role, nobody else."""
    return discord.AllowedMentions(everyone=False, users=False, roles=[discord.Object(role_id)], replied_user=False)


@contextlib.contextmanager
def logged(what: str) -> Iterator[None]:
    """A call that fails is logged: what it announces stands all the same."""
    try:
        yield
    except Exception:
        log.exception("the %s call failed", what)


class RoleCalls:
    """The calls: a tournament open for sign-up, a tournament started, a player seeking a game."""

    def __init__(self, roles: RoleService, presenter: Presenter, languages: Languages) -> None:
        self.roles = roles
        self.presenter = presenter
        self.languages = languages
        #: The roles whose calls were logged as notifying nobody, each with the channel it was
        #: called in: logged once, until a call there notifies again (a role heard in one channel
        #: and not in another is logged once for the other, however the calls alternate).
        self.unheard: set[tuple[int, int]] = set()

    async def tournament_opened(self, row: TournamentRow, message_id: int) -> None:
        """The event's sign-up message ``message_id`` was posted: call its players to it, once."""
        with logged("sign-up"):
            role_id = (await self.roles.server_roles(row.guild_id)).tournaments
            if role_id is None or not await self.roles.claim_event_call(row.guild_id, row.id, "open", now()):
                return
            url = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{message_id}"
            async with self.languages.public(row.guild_id):
                text = _(
                    "**{name}** is open for sign-up: press **Join** on [its message]({url}).",
                    name=markdown_name(row.name),
                    url=url,
                )
            await self.call(row.guild_id, row.channel_id, role_id, text)

    async def tournament_started(self, row: TournamentRow) -> None:
        """The event's first round was announced: call its players, once (later rounds call nobody)."""
        if row.round != 1:
            return
        with logged("tournament start"):
            role_id = (await self.roles.server_roles(row.guild_id)).tournaments
            if role_id is None or not await self.roles.claim_event_call(row.guild_id, row.id, "start", now()):
                return
            where = row.thread_id or row.channel_id
            async with self.languages.public(row.guild_id):
                text = _(
                    "**{name}** has started: its games are in [its thread]({url}).",
                    name=markdown_name(row.name),
                    url=f"https://discord.com/channels/{row.guild_id}/{where}",
                )
            await self.call(row.guild_id, row.channel_id, role_id, text)

    async def seek_waiting(self, seek: SeekRow, url: str) -> None:
        """A player waits in the queue (their search's message at ``url``): call the seek role,
        unless a call went out less than the cooldown ago."""
        with logged("seek"):
            role_id = (await self.roles.server_roles(seek.guild_id)).seeks
            if role_id is None or not await self.roles.claim_seek_call(seek.guild_id, now()):
                return
            async with self.languages.public(seek.guild_id):
                text = _(
                    "**{name}** is looking for a game: press **Play** on [their search]({url}).",
                    name=seek.name,
                    url=url,
                )
            await self.call(seek.guild_id, seek.channel_id, role_id, text)

    async def call(self, guild_id: int, channel_id: int, role_id: int, text: str) -> None:
        """A new message that pings the role ``role_id`` alone (posted even where Discord would
        notify nobody: its text still says what is on)."""
        self.check_heard(guild_id, channel_id, role_id)
        content = f"📣 <@&{role_id}> {text}"
        await self.presenter.post(channel_id, Message(content=content, allowed_mentions=only_role(role_id)))

    def check_heard(self, guild_id: int, channel_id: int, role_id: int) -> None:
        """Log, once until it is heard again, a call role that the call would not notify."""
        guild = self.presenter.client.get_guild(guild_id)
        role = guild.get_role(role_id) if guild is not None else None
        if guild is None or (role is not None and notifies(guild, role, channel_id)):
            self.unheard.discard((role_id, channel_id))
        elif (role_id, channel_id) not in self.unheard:
            self.unheard.add((role_id, channel_id))
            log.warning(
                "the calls of role %s in server %s would notify nobody: the role is gone, or neither "
                "mentionable nor may I mention every role in channel %s",
                role_id,
                guild_id,
                channel_id,
            )


class RoleSettings:
    """``/wari notify`` (a member's own calls) and ``/wari-mod roles`` (a server's roles)."""

    def __init__(self, roles: RoleService, presenter: Presenter, tiers: TierRoles) -> None:
        self.roles = roles
        self.presenter = presenter
        self.tiers = tiers

    async def notify(self, interaction: discord.Interaction, what: str, on: str) -> None:
        """``/wari notify``: the member takes the role of ``what`` calls, or gives it back."""
        guild, member = interaction.guild, interaction.user
        if guild is None or not isinstance(member, discord.Member):
            raise app_commands.NoPrivateMessage()
        role = guild.get_role(getattr(await self.roles.server_roles(guild.id), what) or 0)
        if role is None:
            raise Refusal(NO_CALL_ROLE)
        check_assignable(guild, role)
        try:
            if on == "on" and role not in member.roles:
                await member.add_roles(role, reason="/wari notify")
            elif on == "off" and role in member.roles:
                await member.remove_roles(role, reason="/wari notify")
        except discord.Forbidden:
            raise Refusal(NEEDS_MANAGE_ROLES) from None
        name = markdown_name(role.name)
        if on == "off":
            told = _("🔕 You no longer have the role **{role}**: I won't call you for these.", role=name)
        elif what == "tournaments":
            told = _(
                "🔔 You have the role **{role}**: I ping it when a tournament here opens for sign-up and when "
                "it starts. `/wari notify what: Tournaments on: off` takes it away.",
                role=name,
            )
        else:
            told = _(
                "🔔 You have the role **{role}**: I ping it when someone here looks for a game (at most once "
                "every {minutes} minutes). `/wari notify what: Seeks on: off` takes it away.",
                role=name,
                minutes=int(SEEK_CALL_COOLDOWN.total_seconds() // 60),
            )
        await self.presenter.tell(interaction, told)

    async def server(
        self,
        interaction: discord.Interaction,
        tournaments: discord.Role | None,
        seeks: discord.Role | None,
        tiers: int | None,
        stop: str | None,
    ) -> None:
        """``/wari-mod roles``: change the server's roles as asked (Manage Roles), then show them."""
        guild = interaction.guild
        if guild is None:
            raise app_commands.NoPrivateMessage()
        if (tournaments or seeks or tiers or stop) and not interaction.permissions.manage_roles:
            raise Refusal(N_("Only members with the Manage Roles permission can choose the roles I give and ping."))
        for role in (tournaments, seeks):
            if role is not None:
                check_callable(guild, role)
        if tiers is not None and not guild.me.guild_permissions.manage_roles:
            raise Refusal(NEEDS_MANAGE_ROLES)
        if stop is not None and stop != "tiers":
            await self.roles.set_call_role(guild.id, stop, None)
        for kind, role in (("tournaments", tournaments), ("seeks", seeks)):
            if role is not None:
                await self.roles.set_call_role(guild.id, kind, role.id)
        notes: list[str] = []
        if tiers is not None or stop == "tiers":
            # Counting the players and retiring the old bands may take longer than Discord waits.
            await self.presenter.acknowledge(interaction, thinking=True, private=True)
            notes = (await self.tiers.change(guild, tiers)).notes()
        summary = self.summary(guild, await self.roles.server_roles(guild.id))
        await self.presenter.tell(interaction, "\n".join([summary, *notes]))

    @staticmethod
    def summary(guild: discord.Guild, roles: ServerRoles) -> str:
        """The server's roles as a moderator reads them (names, not mentions)."""
        tournaments = guild.get_role(roles.tournaments or 0)
        seeks = guild.get_role(roles.seeks or 0)
        lines = [
            _(
                "📣 Tournament calls: **{role}**, pinged when a tournament opens and when it starts.",
                role=markdown_name(tournaments.name),
            )
            if tournaments
            else _("📣 Tournament calls: none (choose a role with `tournaments`)."),
            _(
                "🔎 Seek calls: **{role}**, pinged when someone looks for a game (at most once every "
                "{minutes} minutes).",
                role=markdown_name(seeks.name),
                minutes=int(SEEK_CALL_COOLDOWN.total_seconds() // 60),
            )
            if seeks
            else _("🔎 Seek calls: none (choose a role with `seeks`)."),
            _(
                "🏅 Rating-tier roles: bands of {step} points of the wari rating, kept in step after each rated game.",
                step=roles.tier_step,
            )
            if roles.tier_step
            else _("🏅 Rating-tier roles: off (turn them on with `tiers`, the width of a band in points)."),
            _("Members join or leave the calls with `/wari notify`."),
        ]
        # The calls go to the channels of the events and seeks, any of which may grant the bot the
        # permission: server-wide, it is only known that they may not notify.
        unheard = {role.id: role for role in (tournaments, seeks) if role is not None and not notifies(guild, role)}
        lines += [
            _(
                "⚠️ My pings of **{role}** may notify nobody: Discord notifies a role only if it is mentionable "
                "or I have the **Mention @everyone, @here and All Roles** permission in the channel of the call, "
                "and I do not have it server-wide. Turn on *Allow anyone to @mention this role* in Server "
                "Settings → Roles → {role}, or give me that permission in the server or in the channels where "
                "tournaments and seeks happen.",
                role=markdown_name(role.name),
            )
            for role in unheard.values()
        ]
        return "\n".join(lines)
