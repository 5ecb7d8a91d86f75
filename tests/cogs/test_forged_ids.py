"""User stories: forged button ids. A button's custom id comes back with every press, and whoever
sends the press chooses it: a modified client can press an id that no message of the bot shows,
with numbers too large for the database, a house that is not on the board, a key that says
nothing, or the button of another message. Each is refused privately and clearly, changes
nothing (no game, try or message), and is no bug: nothing is logged with a traceback.

A press may change only the message it belongs to: a button whose id is not on the pressed
message is refused unless the message carries a button of the same thing (the board of the same
game, the same try, the same leaderboard), as after a double click that a redraw overtook.
"""

from __future__ import annotations

import logging

import pytest

from bot.ai.puzzles import Puzzle, puzzles_for
from bot.service import puzzles as puzzle_service
from bot.service.puzzles import PuzzleService
from tests.helpers import board_footer, buttons, components, late_click, press, start_game, surrender, told

# The puzzles' refutations run in the computer's worker processes.
pytestmark = pytest.mark.simcord(settle_timeout=120)

UNKNOWN = "I don't recognise this button, so nothing was done."
NOT_HERE = "That button is not on this message, so nothing was done: the message shows where things stand now."
OLDER = "This button is from an older version of the bot and no longer works. Use `/wari board`."
#: The first number the databases cannot hold (SQLite's INTEGER and PostgreSQL's BIGINT end at 2**63 - 1).
BEYOND = 2**63
#: Every table a press could change.
TABLES = (
    "games",
    "challenges",
    "seeks",
    "tournaments",
    "tournament_players",
    "puzzle_attempts",
    "puzzle_ratings",
    "analyses",
)


def look(message) -> tuple:
    """What a message shows: its words, embeds and buttons."""
    return message.content, [embed.to_dict() for embed in message.embeds], message.components


async def database(world) -> dict[str, list[dict]]:
    """Every row a press could change, to compare before and after it."""
    store = world.env.bot.store
    return {
        table: [dict(row) for row in await store.database.read(f"SELECT * FROM {table} ORDER BY 1")] for table in TABLES
    }


def refusal(world, caplog, result) -> str:
    """The one private answer to a press that did nothing, checked to be no bug: no traceback
    logged, nothing raised in the bot."""
    (answer,) = told(result)
    assert answer.flags.ephemeral
    bugs = [record for record in caplog.records if record.exc_info or record.levelno >= logging.ERROR]
    assert not bugs, [record.getMessage() for record in bugs]
    assert not world.env.errors
    return answer.content


def custom_id(message, prefix: str) -> str:
    """The id of the first button of ``message`` whose id starts with ``prefix``."""
    return next(b["custom_id"] for b in buttons(message) if b["custom_id"].startswith(prefix))


# -- puzzles -----------------------------------------------------------------------------------


def one_puzzle(test=lambda puzzle: True) -> Puzzle:
    return next(puzzle for puzzle in puzzles_for("wari") if len(puzzle.solver_moves()) == 1 and test(puzzle))


def solver_houses(puzzle: Puzzle) -> range:
    houses = puzzle.game().rules.houses
    return range(1 + houses * puzzle.solver, houses * (puzzle.solver + 1) + 1)


def with_an_empty_house(puzzle: Puzzle) -> bool:
    return any(puzzle.game().board[house - 1] == 0 for house in solver_houses(puzzle))


def empty_house(puzzle: Puzzle) -> int:
    return next(house for house in solver_houses(puzzle) if puzzle.game().board[house - 1] == 0)


def opponents_house(puzzle: Puzzle) -> int:
    return next(house for house in range(1, 13) if house not in solver_houses(puzzle))


@pytest.fixture
def given(monkeypatch):
    """The next puzzle handed out is this one."""

    def hand_out(puzzle: Puzzle) -> Puzzle:
        monkeypatch.setattr(puzzle_service, "pick", lambda puzzles, rating, rng, exclude=(): puzzle)
        return puzzle

    return hand_out


async def puzzle_board(world, member):
    asked = await member.slash(world.channel, "wari puzzle next")
    assert asked.ephemeral, asked.response.content
    return asked.response


@pytest.mark.parametrize(
    ("house", "answer"),
    [
        (lambda puzzle: 0, lambda house: UNKNOWN),
        (lambda puzzle: 99, lambda house: UNKNOWN),
        (
            lambda puzzle: 13,
            lambda house: "You can't play house 13: there is no house 13: houses are numbered 1 to 12.",
        ),
        (empty_house, lambda house: f"You can't play house {house}: house {house} is empty."),
        (opponents_house, lambda house: f"You can't play house {house}: house {house} belongs to"),
    ],
    ids=["house 0", "house 99", "house 13", "an empty house", "the opponent's house"],
)
async def test_a_forged_house_on_a_puzzle_is_refused_and_the_try_goes_on(world, given, caplog, house, answer):
    puzzle = given(one_puzzle(with_an_empty_house))
    board = await puzzle_board(world, world.alice)
    shown, stored = look(board), await database(world)
    forged = house(puzzle)
    result = await late_click(world.alice, board, f"wari:puzzle:1:0:{forged}")
    assert refusal(world, caplog, result).startswith(answer(forged))
    assert look(board) == shown and await database(world) == stored
    assert (await world.env.bot.store.puzzles.attempt(1)).open  # the try goes on: the right move still solves it
    await world.alice.click(board, custom_id=f"wari:puzzle:1:0:{puzzle.solution[0]}")
    assert "solved the puzzle" in board.content


async def test_a_puzzle_press_that_meets_a_bug_points_at_the_puzzle_not_at_a_board(world, given, monkeypatch, caplog):
    puzzle = given(one_puzzle())
    board = await puzzle_board(world, world.alice)

    async def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(PuzzleService, "move", broken)
    result = await world.alice.click(board, custom_id=f"wari:puzzle:1:0:{puzzle.solution[0]}")
    (answer,) = told(result)
    assert answer.content == (
        "Something went wrong on my side. `/wari puzzle next` (or `/wari puzzle daily`) shows your try where it "
        "stands; please try again."
    )
    assert "a bug" in caplog.text  # a bug is logged, with what it was


async def test_a_forged_puzzle_id_beyond_the_database_or_of_another_try_is_refused(world, given, caplog):
    puzzle = given(one_puzzle())
    board = await puzzle_board(world, world.alice)
    shown, stored = look(board), await database(world)
    house = puzzle.solution[0]
    for forged, answer in (
        (f"wari:puzzle:{BEYOND}:0:{house}", UNKNOWN),
        (f"wari:puzzle:1:{BEYOND}:{house}", UNKNOWN),
        (f"wari:puzzle:{BEYOND}:0:solution", UNKNOWN),
        ("wari:puzzle:next:klingon", UNKNOWN),
        ("wari:puzzle:daily:2026-13-45", UNKNOWN),
        (f"wari:puzzle:2:0:{house}", NOT_HERE),  # a try that is not the one this message shows
        ("wari:puzzle:2:0:solution", NOT_HERE),
    ):
        result = await late_click(world.alice, board, forged)
        assert refusal(world, caplog, result) == answer, forged
    assert look(board) == shown and await database(world) == stored


async def test_a_try_played_from_another_message_is_refused_and_that_message_kept(world, given, caplog):
    puzzle = given(one_puzzle())
    game = await start_game(world)
    await puzzle_board(world, world.alice)
    shown, stored = look(game), await database(world)
    result = await late_click(world.alice, game, f"wari:puzzle:1:0:{puzzle.solution[0]}")
    assert refusal(world, caplog, result) == NOT_HERE
    assert look(game) == shown and await database(world) == stored


# -- game boards -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("member", "forged"),
    [
        ("alice", "wari:cup:1:1:9"),
        ("alice", "wari:cup:1:0:3"),
        ("alice", "wari:rematch:1"),
        ("carol", "wari:analyse:1"),
        ("carol", "wari:next:1:1"),
        ("bob", "wari:draw:1:1:accept"),
        ("bob", "wari:takeback:1:1:A:accept"),
        ("bob", "wari:surrender:1"),
        ("carol", "wari:replay:1:0:first"),
    ],
)
async def test_a_button_of_a_finished_game_pressed_on_the_live_board_leaves_that_board_alone(
    world, caplog, member, forged
):
    first = await start_game(world)
    await press(world.alice, first, 3)
    await surrender(world.bob, world.channel)  # game 1 is over
    board = await start_game(world)  # game 2 is played on this board
    shown, stored = look(board), await database(world)
    result = await late_click(getattr(world, member), board, forged)
    assert refusal(world, caplog, result) == NOT_HERE
    assert look(board) == shown and await database(world) == stored
    await press(world.alice, board, 3)  # the board plays on
    assert board_footer(board) == "Move 1"


@pytest.mark.parametrize(
    "forged",
    [
        f"wari:cup:{BEYOND}:0:3",
        f"wari:cup:1:{BEYOND}:3",
        "wari:cup:1:0:0",
        "wari:cup:1:0:21",
        f"wari:next:{BEYOND}:0",
        f"wari:rematch:{BEYOND}",
        f"wari:analyse:{BEYOND}",
        f"wari:draw:{BEYOND}:0:accept",
        f"wari:surrender:{BEYOND}",
        f"wari:takeback:{BEYOND}:0:A:accept",
        f"wari:challenge:{BEYOND}:accept",
        f"wari:seek:{BEYOND}:1",
        f"wari:seek:1:{BEYOND}",
        f"wari:seek:{BEYOND}:play",
        f"wari:tour:{BEYOND}:join",
        f"wari:replay:{BEYOND}:0:first",
        f"wari:page:history:{BEYOND}:0:next",
        f"wari:page:history:1:{BEYOND}:next",
        "wari:page:history:alice:0:next",
        pytest.param("wari:page:history:9" + "9" * 5000 + ":0:next", id="a 5001-digit number"),
        "wari:cup:1:x:3",
        "wari:cup:1:0",
        "wari:board:1",
    ],
)
async def test_an_id_no_button_of_mine_has_is_refused_on_a_live_board(world, caplog, forged):
    board = await start_game(world)
    shown, stored = look(board), await database(world)
    result = await late_click(world.alice, board, forged)
    assert refusal(world, caplog, result) == UNKNOWN
    assert look(board) == shown and await database(world) == stored


async def others(world) -> tuple:
    """A live unrated game on the board in #games, with a move played, and the buttons of other
    messages that its players or a bystander could press there: a takeback request and a draw
    offer of the game, a challenge, a wait and a tournament's sign-up in #lobby, a history page,
    a replay and a Next move. The board, and for each: who presses it, and its id."""
    board = await start_game(world, rated=False)
    await press(world.alice, board, 3)
    takeback = (await world.alice.slash(world.channel, "wari takeback")).response
    offer = (await world.bob.slash(world.channel, "wari draw")).response
    lobby = world.guild.create_text_channel("lobby")
    challenge = (await world.alice.slash(lobby, "wari challenge", opponent=world.carol)).response
    wait = (await world.carol.slash(lobby, "wari seek")).response
    signup = await world.mod.slash(lobby, "wari-mod tournament create", name="Club", format="swiss", starts="in 1 hour")
    return board, {
        "takeback": (world.bob, custom_id(takeback, "wari:takeback:")),
        "draw": (world.alice, custom_id(offer, "wari:draw:")),
        "challenge": (world.alice, custom_id(challenge, "wari:challenge:")),
        "seek": (world.carol, custom_id(wait, "wari:seek:")),
        "tournament": (world.carol, custom_id(signup.response, "wari:tour:")),
        "surrender": (world.bob, "wari:surrender:1"),
        "page": (world.carol, f"wari:page:history:{world.alice.id}:0:next"),
        "replay": (world.carol, "wari:replay:1:0:first"),
        "next": (world.carol, "wari:next:1:1"),
    }


@pytest.mark.parametrize(
    "kind", ["takeback", "draw", "challenge", "seek", "tournament", "surrender", "page", "replay", "next"]
)
async def test_a_button_of_another_message_pressed_on_a_live_board_changes_nothing(world, caplog, kind):
    board, pressable = await others(world)
    member, forged = pressable[kind]
    shown, stored = look(board), await database(world)
    result = await late_click(member, board, forged)
    assert refusal(world, caplog, result) == NOT_HERE
    assert look(board) == shown and await database(world) == stored


# -- pages -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        "klingon-server-{asker}",
        "wari-galaxy-{asker}",
        "wari-server-alice",
        "wari-server",
        "wari-server-{asker}-more",
        f"wari-server-{BEYOND}",
    ],
)
async def test_a_leaderboard_page_with_a_malformed_key_is_refused(world, caplog, key):
    board = (await world.alice.slash(world.channel, "wari leaderboard")).response
    shown, stored = look(board), await database(world)
    result = await late_click(world.alice, board, f"wari:page:ranks:{key.format(asker=world.alice.id)}:1:next")
    assert refusal(world, caplog, result) == UNKNOWN
    assert look(board) == shown and await database(world) == stored


async def test_a_page_of_another_leaderboard_is_refused_on_this_one(world, caplog):
    board = (await world.alice.slash(world.channel, "wari leaderboard", public=True)).response
    shown = look(board)
    result = await late_click(world.bob, board, f"wari:page:ranks:oware-everyone-{world.bob.id}:0:next")
    assert refusal(world, caplog, result) == NOT_HERE
    assert look(board) == shown


# -- ids of no button --------------------------------------------------------------------------


async def test_a_button_of_an_older_version_still_on_its_message_is_answered(world, caplog):
    board = await start_game(world)
    stored = world.env.backend.get_message(board.channel_id, board.id)
    first_cup = next(component for component in components(stored) if component.get("custom_id"))
    first_cup["custom_id"] = "wari:move:1:3"  # as an older version drew it
    result = await world.alice.click(board, custom_id="wari:move:1:3")
    assert refusal(world, caplog, result) == OLDER


# -- every button --------------------------------------------------------------------------------


def every_button() -> list:
    """One button of each class the bot registers, as it draws them."""
    from cogs.wari.analyses.views import AnalyseButton
    from cogs.wari.endings import SurrenderButton
    from cogs.wari.puzzles.views import DailyTryButton, NextPuzzleButton, PuzzleCupButton, SolutionButton
    from cogs.wari.records import ReplayButton
    from cogs.wari.seeks import CancelSeekButton, PlaySeekButton
    from cogs.wari.standings import PageButton
    from cogs.wari.takebacks import TakebackButton
    from cogs.wari.tournaments.views import TeamButton, TournamentButton
    from cogs.wari.views import ChallengeButton, ControlButton, CupButton, DrawButton, NextMoveButton, RematchButton

    return [
        CupButton(12, 3, 7),
        ControlButton(12, "surrender"),
        NextMoveButton(12, 3),
        RematchButton(12),
        AnalyseButton(12),
        ChallengeButton(5, "accept"),
        DrawButton(12, 3, "decline"),
        SurrenderButton(12),
        TakebackButton(12, 3, "B", "accept"),
        CancelSeekButton(4, 1456074443980800009),
        PlaySeekButton(4),
        TournamentButton(2, "leave"),
        TeamButton(2, 1, "Lions"),
        PuzzleCupButton(8, 1, 4),
        SolutionButton(8, 1),
        NextPuzzleButton("oware"),
        DailyTryButton("2026-02-28"),
        ReplayButton(12, 3, "prev"),
        PageButton("ranks", "kalah-everyone-1456074443980800009", 2, "next"),
        PageButton("history", "1456074443980800009", 2, "prev"),
    ]


def values(button) -> dict:
    """What a button carries, as its class keeps it (its game, its move, its house...)."""
    return {name: value for name, value in vars(button).items() if not name.startswith("_") and name != "item"}


async def test_every_button_is_read_back_as_itself_and_names_what_it_belongs_to():
    """An id matches one template only (discord.py runs every button whose template matches),
    reads back into the button it came from, and says which message it belongs to."""
    from cogs.wari.buttons import recognise, subject
    from cogs.wari.cog import BUTTONS

    drawn = every_button()
    assert {type(button) for button in drawn} == set(BUTTONS)
    for button in drawn:
        matching = [kind for kind in BUTTONS if kind.__discord_ui_compiled_template__.fullmatch(button.custom_id)]
        assert matching == [type(button)], button.custom_id
        kind, match = recognise(button.custom_id, BUTTONS)
        again = await kind.from_custom_id(None, button.item, match)
        assert again.custom_id == button.custom_id and values(again) == values(button)
        family, *fields = kind.BELONGS
        assert set(fields) <= set(match.groupdict()) and subject(kind, match)[0] == family
