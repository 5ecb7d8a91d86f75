"""User stories: puzzles. A member asks for a puzzle near their puzzle rating and solves it with
cup buttons, the bot answering the opponent's replies; a wrong move is refuted and the solution
shown; the rating and the streak move both ways; the buttons work after a restart and only for
the solver. The server's daily puzzle is the same for every member, one try each, posted by
itself at the hour a moderator chose, once."""

from __future__ import annotations

import discord
import pytest

from bot.ai.puzzles import Puzzle, puzzle_by_id, puzzles_for
from bot.i18n import _ as translated
from bot.i18n import speaking
from bot.render import describe_move
from bot.service import puzzles as puzzle_service
from tests.helpers import buttons as buttons_of
from tests.helpers import late_click, pinged, shown

# Hours pass in the daily stories: SimCord settles the bot at each 30-second sweep on the way.
pytestmark = pytest.mark.simcord(settle_timeout=120)


def in_language(language: str, message: str, **params) -> str:
    with speaking(language):
        return translated(message, **params)


def first_puzzle(test) -> Puzzle:
    return next(puzzle for puzzle in puzzles_for("wari") if test(puzzle))


def multi_move() -> Puzzle:
    return first_puzzle(lambda puzzle: len(puzzle.solver_moves()) >= 2)


def refutable() -> Puzzle:
    """A one-move puzzle with a wrong move the opponent can punish."""

    def punished(puzzle: Puzzle) -> bool:
        if len(puzzle.solver_moves()) != 1:
            return False
        wrong = [house for house in puzzle.game().legal_moves if house != puzzle.solution[0]]
        return bool(wrong) and bool(puzzle_service.refutation_line(puzzle.id, "", wrong[0]))

    return first_puzzle(punished)


def wrong_move(puzzle: Puzzle) -> int:
    return next(house for house in puzzle.game().legal_moves if house != puzzle.solution[0])


@pytest.fixture
def given(monkeypatch):
    """Make the next puzzles handed out these ones, in order (the pick near the rating is told apart elsewhere)."""

    def hand_out(*chosen: Puzzle) -> None:
        queue = list(chosen)
        monkeypatch.setattr(puzzle_service, "pick", lambda puzzles, rating, rng, exclude=(): queue.pop(0))

    return hand_out


def cup(message, house: int) -> str:
    for button in buttons_of(message):
        if button["custom_id"].startswith("wari:puzzle:") and button["custom_id"].endswith(f":{house}"):
            return button["custom_id"]
    raise AssertionError(f"no cup {house} on the puzzle: {[b['custom_id'] for b in buttons_of(message)]}")


async def play(member, message, house: int):
    return await member.click(message, custom_id=cup(message, house))


async def solve(member, message, puzzle: Puzzle) -> None:
    for house in puzzle.solver_moves():
        await play(member, message, house)


async def standing(world, member):
    return await world.env.bot.store.puzzles.puzzle_standing(member.id)


def description(message) -> str:
    return message.embeds[0].description or ""


async def test_a_puzzle_of_several_moves_is_solved_move_by_move_and_raises_the_rating(world, given):
    puzzle = multi_move()
    given(puzzle)
    asked = await world.alice.slash(world.channel, "wari puzzle next")
    board = asked.response
    assert asked.ephemeral and "Your move!" in board.content
    side = "AB"[puzzle.solver]
    assert f"you play **{side}**" in board.content
    assert "**Goal**" in description(board) and "moves to find" in description(board)
    assert board.embeds[0].footer.text == f"Puzzle {puzzle.id}"
    assert "Theme" not in description(board)  # the theme and the puzzle's rating only once it is over

    first, *rest = puzzle.solver_moves()
    await play(world.alice, board, first)
    assert board.content.startswith("✅ Right!")
    assert "↪️" in description(board)  # the opponent's reply, played by the bot
    assert (await world.env.bot.store.puzzles.attempt(1)).played == (first,)
    for house in rest:
        await play(world.alice, board, house)

    assert "solved the puzzle" in board.content
    assert "**Solution**" in description(board) and "Theme" in description(board)
    assert "📈 **Puzzle rating:** 1500? →" in description(board) and "(+" in description(board)
    assert "🔥 **Streak:** 1 (best 1)" in description(board)
    assert [b["label"] for b in buttons_of(board)] == ["Next puzzle"]
    mine = await standing(world, world.alice)
    assert mine.rating > 1500 and (mine.solved, mine.failed, mine.streak) == (1, 0, 1)


async def test_a_wrong_move_is_refuted_the_solution_shown_and_the_rating_falls(world, given):
    puzzle = refutable()
    given(puzzle)
    board = (await world.alice.slash(world.channel, "wari puzzle next")).response
    await play(world.alice, board, wrong_move(puzzle))

    assert "did not solve the puzzle" in board.content
    text = description(board)
    assert "❌" in text and "**Refutation**:\n" in text and "**Solution**:\n" in text
    assert "(-" in text and "🔥 **Streak:** 0" in text
    assert not [b for b in buttons_of(board) if b["custom_id"].startswith("wari:puzzle:1:")]  # the cups are gone
    mine = await standing(world, world.alice)
    assert mine.rating < 1500 and (mine.solved, mine.failed, mine.streak) == (0, 1, 0)
    stats = (await world.alice.slash(world.channel, "wari stats")).response
    (field,) = [f for f in stats.embeds[0].fields if f.name == "Puzzles"]
    assert "0 solved, 1 failed · streak 0" in field.value
    for language, puzzles, counts in (
        ("fr", "Problèmes", "0 résolu, 1 raté"),
        ("pt", "Problemas", "0 resolvido, 1 errado"),
    ):
        await world.alice.slash(world.channel, "wari settings", language=language)
        stats = (await world.alice.slash(world.channel, "wari stats")).response
        (field,) = [f for f in stats.embeds[0].fields if f.name == puzzles]
        assert counts in field.value, field.value  # each count agrees with its own number


async def test_a_solved_streak_ends_with_a_failure_and_stats_show_it(world, given):
    first, second = multi_move(), refutable()
    given(first, second)
    board = (await world.alice.slash(world.channel, "wari puzzle next")).response
    await solve(world.alice, board, first)
    peak = (await standing(world, world.alice)).rating
    following = (await world.alice.click(board, label="Next puzzle")).response
    assert following.embeds[0].footer.text == f"Puzzle {second.id}"
    await play(world.alice, following, wrong_move(second))
    after = await standing(world, world.alice)
    assert after.rating < peak and after.streak == 0 and after.best_streak == 1
    stats = (await world.alice.slash(world.channel, "wari stats")).response
    (field,) = [f for f in stats.embeds[0].fields if f.name == "Puzzles"]
    assert (
        field.value.startswith(f"**{round(after.rating)}") and "1 solved, 1 failed · streak 0 (best 1)" in field.value
    )


async def test_the_buttons_work_after_a_restart_and_a_stale_press_is_told(world, given):
    puzzle = multi_move()
    given(puzzle)
    board = (await world.alice.slash(world.channel, "wari puzzle next")).response
    first, second, *rest = puzzle.solver_moves()
    stale = cup(board, first)
    await play(world.alice, board, first)

    await world.restart()
    await play(world.alice, board, second)
    assert (await world.env.bot.store.puzzles.attempt(1)).played == (first, second)
    again = await world.alice.slash(world.channel, "wari puzzle next")  # the try under way comes back
    assert "under way" in again.response.content
    assert buttons_of(again.response)[0]["custom_id"].startswith("wari:puzzle:1:2:")
    refused = await late_click(world.alice, board, stale)  # a press on the board as it was before the move
    assert refused.ephemeral and "moved on" in refused.response.content
    for house in rest:
        await play(world.alice, board, house)
    assert "solved the puzzle" in board.content


async def test_only_the_solver_may_press_a_public_puzzle(world, given):
    puzzle = multi_move()
    given(puzzle)
    asked = await world.alice.slash(world.channel, "wari puzzle next", public=True)
    board = asked.response
    assert not asked.ephemeral
    pressed = await play(world.bob, board, puzzle.solver_moves()[0])
    assert pressed.ephemeral and "someone else's" in pressed.response.content
    assert (await world.env.bot.store.puzzles.attempt(1)).played == ()
    assert "Your move!" in board.content


async def test_puzzles_come_near_the_rating_and_never_twice(world):
    seen = []
    for _ in range(4):
        board = (await world.alice.slash(world.channel, "wari puzzle next")).response
        ident = board.embeds[0].footer.text.removeprefix("Puzzle ")
        seen.append(ident)
        puzzle = puzzle_by_id(ident)
        assert puzzle is not None
        mine = await standing(world, world.alice)
        current = mine.rating if mine else 1500
        assert abs(puzzle.difficulty - current) <= 250, (puzzle.difficulty, current)
        await world.alice.click(board, label="Show the solution (counts as a miss)")
        assert "did not solve" in board.content and "**Solution**" in description(board)
    assert len(set(seen)) == len(seen)


async def test_the_daily_puzzle_is_the_same_for_everyone_and_lists_who_solved_it_first_try(world):
    alice_try = (await world.alice.slash(world.channel, "wari puzzle daily")).response
    bob_try = (await world.bob.slash(world.channel, "wari puzzle daily")).response
    ident = alice_try.embeds[0].footer.text
    assert ident == bob_try.embeds[0].footer.text and alice_try.embeds[0].title == "🧩 Daily puzzle · 2026-01-01"
    puzzle = puzzle_by_id(ident.removeprefix("Puzzle "))
    assert puzzle is not None
    await solve(world.alice, alice_try, puzzle)
    assert "solved the puzzle" in alice_try.content and "does not change your rating" in description(alice_try)
    await bob_try_wrong(world, bob_try, puzzle)

    mine = await standing(world, world.alice)
    assert mine.rating == 1500 and mine.streak == 1  # the daily counts for the streak, not the rating
    again = await world.alice.slash(world.channel, "wari puzzle daily")  # one try a member
    assert "You have had your try" in again.response.content
    assert f"Solved first try: {shown(world.alice)} (1 of 2 solved it)" in again.response.content
    assert [b["label"] for b in buttons_of(again.response)] == ["Next puzzle"]


async def bob_try_wrong(world, board, puzzle: Puzzle) -> None:
    await world.bob.click(board, label="Show the solution (counts as a miss)")
    assert "did not solve" in board.content


async def test_the_daily_puzzle_is_posted_at_its_hour_once_and_a_press_starts_a_private_try(world):
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True, manage_messages=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[admins])
    refused = await world.mod.slash(world.channel, "wari-mod puzzle daily", channel=world.channel, hour=1)
    assert refused.ephemeral and "Manage Server" in refused.response.content  # Manage Messages is not enough
    chosen = await admin.slash(world.channel, "wari-mod puzzle daily", channel=world.channel, hour=1)
    assert "**01:00 UTC**" in chosen.response.content and f"<#{world.channel.id}>" in chosen.response.content

    def posts():
        return [m for m in world.channel.history() if "puzzle of the day" in (m.content or "")]

    await world.env.advance_time(50 * 60)  # 00:50 (SimCord's day starts at midnight): not yet
    assert posts() == []
    await world.env.advance_time(11 * 60)  # 01:01: posted
    (post,) = posts()
    assert post.embeds[0].title == "🧩 Daily puzzle · 2026-01-01" and "Nobody has tried it yet." in post.content
    await world.restart()
    await world.env.advance_time(30 * 60)  # later that day, after a restart: not again
    assert len(posts()) == 1

    tried = await world.carol.click(post, label="Try it")
    assert tried.ephemeral and tried.response.embeds[0].footer.text == post.embeds[0].footer.text
    puzzle = puzzle_by_id(post.embeds[0].footer.text.removeprefix("Puzzle "))
    assert puzzle is not None
    await solve(world.carol, tried.response, puzzle)
    (post,) = posts()
    assert f"Solved first try: {shown(world.carol)} (1 of 1 solved it)" in post.content
    assert pinged(world, post) == set()  # named, nobody notified
    again = await world.carol.click(post, label="Try it")  # one try a member
    assert again.ephemeral and "You have had your try" in again.response.content

    stopped = await admin.slash(world.channel, "wari-mod puzzle daily", off=True)
    assert "not posted here" in stopped.response.content


def told_in_words(game, houses, names, language: str = "en") -> list[str]:
    """Each move of ``houses`` from ``game`` as a board tells it (notation, then words), in ``language``."""
    trial, words = game.copy(), []
    with speaking(language):
        for house in houses:
            record = trial.play(house)
            words.append(describe_move(record, names[record.player], trial.rules))
    return words


async def test_show_the_solution_says_before_it_is_pressed_that_it_counts_as_a_miss(world, given):
    puzzle = multi_move()
    given(puzzle)
    board = (await world.alice.slash(world.channel, "wari puzzle next")).response
    (giving_up,) = [b for b in buttons_of(board) if b["custom_id"].endswith(":solution")]
    assert giving_up["label"] == "Show the solution (counts as a miss)"
    assert len(giving_up["label"]) <= 80  # Discord's limit for a button label

    await world.alice.click(board, custom_id=giving_up["custom_id"])
    assert "did not solve" in board.content
    mine = await standing(world, world.alice)
    assert mine.rating < 1500 and (mine.solved, mine.failed, mine.streak) == (0, 1, 0)  # as it said: a miss


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_failed_try_tells_the_refutation_and_the_solution_in_words_beside_their_notation(
    world, given, language
):
    puzzle = refutable()
    given(puzzle)
    if language != "en":
        await world.alice.slash(world.channel, "wari settings", language=language)
    board = (await world.alice.slash(world.channel, "wari puzzle next")).response
    wrong = wrong_move(puzzle)
    await play(world.alice, board, wrong)

    text = description(board)
    opponent = in_language(language, "Opponent")
    names = (shown(world.alice), opponent) if puzzle.solver == 0 else (opponent, shown(world.alice))
    after_the_wrong_move = puzzle.game()
    after_the_wrong_move.play(wrong)
    refutation = puzzle_service.refutation_line(puzzle.id, "", wrong)
    solution = told_in_words(puzzle.game(), puzzle.solution, names, language)
    refuted = told_in_words(after_the_wrong_move, refutation, names, language)
    assert refuted and all(words in text for words in refuted), text
    assert all(words in text for words in solution), text
    assert language == "en" or " sowed " not in text  # the words are the reader's, not English
    # Each told under its own label (the same move may be in both: the solver's moves in the refutation).
    refutation_at, solution_at = (
        text.index(in_language(language, label)) for label in ("**Refutation**", "**Solution**")
    )
    assert refutation_at < solution_at
    assert all(words in text[refutation_at:solution_at] for words in refuted), text
    assert all(words in text[solution_at:] for words in solution), text


@pytest.fixture
def shipped_files(tmp_path, monkeypatch):
    """The shipped puzzle files copied to a folder of their own, which the bot reads instead: a
    story withdraws a puzzle from it as ``python -m bot.ai.puzzles verify --drop`` does, then
    restarts the bot (a deploy of the new files)."""
    import shutil

    import bot.ai.puzzles as shipped
    from bot.ai.puzzles.verify import drop_lines

    def forget() -> None:
        shipped.puzzles_for.cache_clear()
        shipped._by_id.cache_clear()

    folder = tmp_path / "puzzles"
    shutil.copytree(shipped.DATA_DIR, folder)
    monkeypatch.setattr(shipped, "DATA_DIR", folder)
    forget()

    def withdraw(ident: str) -> None:
        assert drop_lines(folder / f"{ident.partition('-')[0]}.txt", [ident]) == 1
        forget()

    yield withdraw
    monkeypatch.undo()
    forget()


async def test_a_try_at_a_puzzle_withdrawn_meanwhile_is_told_gone_and_the_next_puzzle_is_a_new_one(
    world, given, shipped_files
):
    puzzle = multi_move()
    other = first_puzzle(lambda candidate: candidate.id != puzzle.id)
    given(puzzle, other)
    board = (await world.alice.slash(world.channel, "wari puzzle next")).response
    first, second, *_ = puzzle.solver_moves()
    await play(world.alice, board, first)
    shipped_files(puzzle.id)  # found wrong by the re-verification, and deployed
    await world.restart()

    pressed = await play(world.alice, board, second)
    assert pressed.ephemeral and "no longer available" in pressed.response.content
    gave_up = await world.alice.click(board, label="Show the solution (counts as a miss)")
    assert gave_up.ephemeral and "no longer available" in gave_up.response.content
    assert await standing(world, world.alice) is None  # a withdrawn puzzle costs no rating, no streak
    asked = await world.alice.slash(world.channel, "wari puzzle next")  # not "under way": a new one
    assert "under way" not in asked.response.content
    assert asked.response.embeds[0].footer.text == f"Puzzle {other.id}"


async def test_a_daily_puzzle_withdrawn_after_the_day_chose_it_is_told_gone_and_not_posted(world, shipped_files):
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True, manage_messages=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[admins])
    alice_try = (await world.alice.slash(world.channel, "wari puzzle daily")).response
    ident = alice_try.embeds[0].footer.text.removeprefix("Puzzle ")
    shipped_files(ident)
    await world.restart()

    for member in (world.alice, world.bob):  # her try at it, and a first try
        asked = await member.slash(world.channel, "wari puzzle daily")
        assert asked.ephemeral and "no longer available" in asked.response.content
    await admin.slash(world.channel, "wari-mod puzzle daily", channel=world.channel, hour=1)
    await world.env.advance_time(61 * 60)  # its hour: nothing to post, and nothing raised
    assert not [m for m in world.channel.history() if "puzzle of the day" in (m.content or "")]
