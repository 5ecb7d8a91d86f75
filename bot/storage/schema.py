"""The database schema, as numbered migrations (``PRAGMA user_version`` says which ran)."""

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema. AUTOINCREMENT: an id is never reused, so a button left on an old
    # message can never name a newer challenge or game.
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE challenges (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL UNIQUE,
        challenger_id INTEGER NOT NULL,
        opponent_id   INTEGER NOT NULL,
        variant       TEXT NOT NULL,
        first         TEXT NOT NULL CHECK (first IN ('me', 'opponent', 'random')),
        message_id    INTEGER,
        created_at    TEXT NOT NULL,
        expires_at    TEXT NOT NULL
    );
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        player_a    INTEGER NOT NULL,
        player_b    INTEGER NOT NULL,
        variant     TEXT NOT NULL,
        record      TEXT NOT NULL,
        version     INTEGER NOT NULL DEFAULT 0,
        message_id  INTEGER,
        status      TEXT NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'finished', 'aborted')),
        result      TEXT CHECK (result IN ('A', 'B', 'draw')),
        reason      TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        finished_at TEXT
    );
    CREATE UNIQUE INDEX one_live_game_per_channel ON games (channel_id) WHERE status = 'live';
    CREATE INDEX games_by_player_a ON games (player_a);
    CREATE INDEX games_by_player_b ON games (player_b);
    """,
    # 2: the bot as a player: the computer level of each side it plays (NULL: a person).
    """
    ALTER TABLE games ADD COLUMN level_a TEXT;
    ALTER TABLE games ADD COLUMN level_b TEXT;
    ALTER TABLE games ADD COLUMN autoplay INTEGER NOT NULL DEFAULT 0;
    """,
    # 3: games that never stall: clocks, turn pings and reminders, draw offers, a thread per
    # game, per-user settings. Times are UTC ISO text like the other columns, so they compare
    # as text; the sweeps read only the due rows through the partial indexes.
    """
    ALTER TABLE challenges ADD COLUMN clock TEXT NOT NULL DEFAULT '1d/move';
    ALTER TABLE challenges ADD COLUMN thread INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE challenges ADD COLUMN rematch_of INTEGER REFERENCES games (id);
    ALTER TABLE games ADD COLUMN clock TEXT;
    ALTER TABLE games ADD COLUMN deadline TEXT;
    ALTER TABLE games ADD COLUMN time_a REAL;
    ALTER TABLE games ADD COLUMN time_b REAL;
    ALTER TABLE games ADD COLUMN clock_paused INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN ping_at TEXT;
    ALTER TABLE games ADD COLUMN ping_kind TEXT CHECK (ping_kind IN ('turn', 'reminder'));
    ALTER TABLE games ADD COLUMN ping_message_id INTEGER;
    ALTER TABLE games ADD COLUMN draw_by TEXT CHECK (draw_by IN ('A', 'B'));
    ALTER TABLE games ADD COLUMN draw_ply INTEGER;
    ALTER TABLE games ADD COLUMN draw_open INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN draw_message_id INTEGER;
    ALTER TABLE games ADD COLUMN thread INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX live_games_by_deadline ON games (deadline) WHERE status = 'live' AND deadline IS NOT NULL;
    CREATE INDEX live_games_by_ping ON games (ping_at) WHERE status = 'live' AND ping_at IS NOT NULL;
    CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY,
        pings   INTEGER NOT NULL DEFAULT 1
    );
    """,
    # 4: players remember: Glicko-2 ratings per rule set and every change of them, each
    # player's results (by rule set and opponent, kept up to date as games are archived), the
    # rated players of each server (for its leaderboard), and indexes for a player's archived
    # games. Ratings and results of the games archived before are filled in, in the order they
    # finished (RatingQueries.count_the_archive).
    """
    CREATE TABLE ratings (
        user_id    INTEGER NOT NULL,
        variant    TEXT NOT NULL,
        rating     REAL NOT NULL,
        rd         REAL NOT NULL,
        volatility REAL NOT NULL,
        games      INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (user_id, variant)
    );
    CREATE INDEX ratings_by_variant ON ratings (variant, rating DESC);
    CREATE TABLE rating_changes (
        game_id       INTEGER NOT NULL REFERENCES games (id),
        user_id       INTEGER NOT NULL,
        variant       TEXT NOT NULL,
        rating_before REAL NOT NULL,
        rd_before     REAL NOT NULL,
        rating_after  REAL NOT NULL,
        rd_after      REAL NOT NULL,
        changed_at    TEXT NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes (user_id, variant, changed_at);
    CREATE TABLE player_stats (
        user_id     INTEGER NOT NULL,
        variant     TEXT NOT NULL,     -- a rule set, or '*' for all of them
        opponent    TEXT NOT NULL,     -- '' for people, else the computer level
        games       INTEGER NOT NULL,
        wins        INTEGER NOT NULL,
        draws       INTEGER NOT NULL,
        losses      INTEGER NOT NULL,
        streak      INTEGER NOT NULL,  -- wins in a row up to the last game
        best_streak INTEGER NOT NULL,
        PRIMARY KEY (user_id, variant, opponent)
    ) WITHOUT ROWID;
    CREATE TABLE guild_players (
        guild_id INTEGER NOT NULL,
        variant  TEXT NOT NULL,
        user_id  INTEGER NOT NULL,
        PRIMARY KEY (guild_id, variant, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX archived_by_player_a ON games (player_a, id) WHERE status != 'live';
    CREATE INDEX archived_by_player_b ON games (player_b, id) WHERE status != 'live';
    """,
    # 5: players' names as the server showed them when the game (or challenge) began: boards and
    # lists show names, not mentions (a mention in an embed renders only for readers whose app
    # knows the member). NULL for the games of before, which fall back to a mention.
    """
    ALTER TABLE games ADD COLUMN name_a TEXT;
    ALTER TABLE games ADD COLUMN name_b TEXT;
    ALTER TABLE challenges ADD COLUMN challenger_name TEXT;
    ALTER TABLE challenges ADD COLUMN opponent_name TEXT;
    """,
    # 6: languages and board styles: a player's language for what only they read, a server's
    # language for its public messages and how its boards are drawn (NULL language: Discord's).
    """
    ALTER TABLE user_settings ADD COLUMN language TEXT CHECK (language IN ('en', 'fr', 'pt'));
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        language TEXT CHECK (language IN ('en', 'fr', 'pt')),
        board    TEXT NOT NULL DEFAULT 'text' CHECK (board IN ('text', 'image'))
    );
    """,
    # 7: a press costs the same at move 200 as at move 1: the game's state after its last move
    # is kept beside its record (``bot.engine.notation.snapshot``), so reading a game no longer
    # replays every move. NULL for the games of before, which are replayed once more.
    """
    ALTER TABLE games ADD COLUMN position TEXT;
    """,
    # 8: open challenges: ``opponent_id`` 0 (no Discord id is 0) is a challenge anyone in the
    # channel may accept, within a rating range if one is set (NULL: no bound).
    """
    ALTER TABLE challenges ADD COLUMN min_rating INTEGER;
    ALTER TABLE challenges ADD COLUMN max_rating INTEGER;
    """,
    # 9: quick pairing (``/wari seek``): who waits for a game in a server, of which rule set and
    # clock, their rating when they asked and how far from it an opponent may be (NULL: anyone).
    # One wait per player and server; the pairing claims a wait by deleting it.
    """
    CREATE TABLE seeks (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        user_name  TEXT,
        variant    TEXT NOT NULL,
        clock      TEXT NOT NULL,
        rating     INTEGER NOT NULL,
        within     INTEGER,
        message_id INTEGER,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_seek_per_player ON seeks (guild_id, user_id);
    CREATE INDEX seeks_by_game ON seeks (guild_id, variant, clock, id);
    CREATE INDEX seeks_by_expiry ON seeks (expires_at);
    """,
    # 10: unrated games between people (``rated: False``): no rating changes, takebacks allowed.
    """
    ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
    """,
    # 11: the version of the game its board message shows (NULL: not known), so that a board left
    # behind (the process died between a move's commit and its board's redraw) is found and redrawn.
    """
    ALTER TABLE games ADD COLUMN shown_version INTEGER;
    """,
    # 12: tournaments. An event belongs to the channel it was made in; its players (their rating
    # when they joined; a late joiner's first round; a withdrawal after a round) and its pairings,
    # a round's pairings written in the same transaction that moves its round on (a round starts
    # once). A pairing's game is linked once started, and its result (the first mover's points)
    # is written once: where ``result IS NULL``.
    """
    CREATE TABLE tournaments (
        id                   INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id             INTEGER NOT NULL,
        channel_id           INTEGER NOT NULL,
        name                 TEXT NOT NULL,
        format               TEXT NOT NULL CHECK (format IN ('swiss', 'round-robin', 'arena')),
        variant              TEXT NOT NULL,
        clock                TEXT NOT NULL,
        rounds               INTEGER,
        max_players          INTEGER,
        rated                INTEGER NOT NULL DEFAULT 1,
        cycles               INTEGER NOT NULL DEFAULT 1,
        duration             INTEGER,
        starts_at            TEXT NOT NULL,
        ends_at              TEXT,
        status               TEXT NOT NULL DEFAULT 'open'
                             CHECK (status IN ('open', 'running', 'paused', 'finished', 'cancelled')),
        round                INTEGER NOT NULL DEFAULT 0,
        announced            INTEGER NOT NULL DEFAULT 0,
        message_id           INTEGER,
        standings_message_id INTEGER,
        podium_message_id    INTEGER,
        created_by           INTEGER NOT NULL,
        created_at           TEXT NOT NULL,
        finished_at          TEXT
    );
    CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);
    CREATE INDEX tournaments_by_guild ON tournaments (guild_id, id);
    CREATE TABLE tournament_players (
        tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
        user_id         INTEGER NOT NULL,
        name            TEXT,
        rating          REAL NOT NULL,
        joined_round    INTEGER NOT NULL DEFAULT 1,
        withdrawn_after INTEGER,
        joined_at       TEXT NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_pairings (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        round         INTEGER NOT NULL,
        board         INTEGER NOT NULL,
        first_id      INTEGER NOT NULL,
        second_id     INTEGER,
        game_id       INTEGER UNIQUE REFERENCES games (id),
        result        REAL,
        forfeit       INTEGER NOT NULL DEFAULT 0,
        reason        TEXT,
        created_at    TEXT NOT NULL,
        finished_at   TEXT,
        PRIMARY KEY (tournament_id, round, board)
    );
    """,
    # 13: learning from games. An analysis of a finished game at one depth: queued, running (its
    # progress in plies, its message), done (the analysis as JSON, so asking again is instant) or
    # failed. Puzzles: each player's puzzle rating and streak, each try at a puzzle (the solver's
    # moves so far; the server's daily puzzle marked with its day), the daily puzzle each server
    # was given (posted once), and where and when a server wants it posted.
    """
    CREATE TABLE analyses (
        game_id      INTEGER NOT NULL REFERENCES games (id),
        depth        TEXT NOT NULL CHECK (depth IN ('default', 'quick')),
        status       TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
        requested_by INTEGER NOT NULL,
        guild_id     INTEGER NOT NULL,
        channel_id   INTEGER,
        message_id   INTEGER,
        done_plies   INTEGER NOT NULL DEFAULT 0,
        total_plies  INTEGER NOT NULL DEFAULT 0,
        result       TEXT,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        finished_at  TEXT,
        PRIMARY KEY (game_id, depth)
    );
    CREATE INDEX analyses_by_status ON analyses (status, created_at);
    CREATE INDEX analyses_by_requester ON analyses (requested_by, status);
    CREATE TABLE puzzle_ratings (
        user_id     INTEGER PRIMARY KEY,
        rating      REAL NOT NULL DEFAULT 1500,
        rd          REAL NOT NULL DEFAULT 350,
        volatility  REAL NOT NULL DEFAULT 0.06,
        solved      INTEGER NOT NULL DEFAULT 0,
        failed      INTEGER NOT NULL DEFAULT 0,
        streak      INTEGER NOT NULL DEFAULT 0,
        best_streak INTEGER NOT NULL DEFAULT 0,
        updated_at  TEXT
    );
    CREATE TABLE puzzle_attempts (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id       INTEGER NOT NULL,
        guild_id      INTEGER,
        puzzle_id     TEXT NOT NULL,
        name          TEXT,
        daily         TEXT,
        moves         TEXT NOT NULL DEFAULT '',
        status        TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'solved', 'failed')),
        rating_before REAL,
        rating_after  REAL,
        created_at    TEXT NOT NULL,
        finished_at   TEXT
    );
    CREATE INDEX puzzle_attempts_by_user ON puzzle_attempts (user_id, puzzle_id);
    CREATE INDEX puzzle_attempts_by_day ON puzzle_attempts (guild_id, daily, finished_at);
    CREATE TABLE daily_puzzles (
        guild_id   INTEGER NOT NULL,
        day        TEXT NOT NULL,
        puzzle_id  TEXT NOT NULL,
        channel_id INTEGER,
        message_id INTEGER,
        posted_at  TEXT,
        PRIMARY KEY (guild_id, day)
    );
    ALTER TABLE guild_settings ADD COLUMN puzzle_channel INTEGER;
    ALTER TABLE guild_settings ADD COLUMN puzzle_hour INTEGER;
    """,
    # 14: no flood: a tournament plays all its games in one thread of its channel (its id kept with
    # the event, so a restart reuses it). A channel holds one live game, unless its games are a
    # tournament's (``games.tournament_id``, filled in for the games linked before): then one live
    # game per player there. The games already linked are marked as the event's. The channel's
    # live games are found through an index of their own (the unique ones are partial on the event).
    """
    ALTER TABLE tournaments ADD COLUMN thread_id INTEGER;
    ALTER TABLE games ADD COLUMN tournament_id INTEGER;
    UPDATE games SET tournament_id = (
        SELECT tournament_pairings.tournament_id FROM tournament_pairings WHERE tournament_pairings.game_id = games.id
    ) WHERE id IN (SELECT game_id FROM tournament_pairings WHERE game_id IS NOT NULL);
    DROP INDEX one_live_game_per_channel;
    CREATE UNIQUE INDEX one_live_game_per_channel ON games (channel_id) WHERE status = 'live' AND tournament_id IS NULL;
    CREATE UNIQUE INDEX one_live_event_game_per_player_a
        ON games (channel_id, player_a) WHERE status = 'live' AND tournament_id IS NOT NULL;
    CREATE UNIQUE INDEX one_live_event_game_per_player_b
        ON games (channel_id, player_b) WHERE status = 'live' AND tournament_id IS NOT NULL;
    CREATE INDEX live_games_by_channel ON games (channel_id) WHERE status = 'live';
    """,
    # 15: games anywhere in Discord, the app installed to users as well as servers. Where a game
    # (or challenge) is played: ``server``, a channel of a server that added the bot, which may
    # post there; ``dm``, the bot's direct messages, where it may post too; ``interaction``, a
    # group DM or a server that did not add the bot, where it only answers interactions. Outside a
    # server ``guild_id`` is 0 (no server's id is 0); a server that did not add the bot keeps its
    # id, for the links. The games of before were all a server's.
    """
    ALTER TABLE games ADD COLUMN venue TEXT NOT NULL DEFAULT 'server' CHECK (venue IN ('server', 'dm', 'interaction'));
    ALTER TABLE challenges ADD COLUMN venue TEXT NOT NULL DEFAULT 'server'
        CHECK (venue IN ('server', 'dm', 'interaction'));
    """,
    # 16: recurring events. A schedule makes the next edition of an event when one starts (same
    # settings as its newest edition, the start moved by its period), until its count of editions
    # or its end date, or until stopped; edition k starts ``k - anchor_edition`` periods after
    # ``anchor`` (a change of period re-anchors it). An edition's number is unique in its schedule,
    # so the next one is made once, whichever process gets there first. A schedule's title (a
    # shield) passes to each edition's winner: ``titles`` keeps who won it, once per edition. An
    # event is also a Discord scheduled event of its server: its id and the status last given to
    # it (``refused``: Discord would not make it).
    """
    CREATE TABLE tournament_schedules (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id       INTEGER NOT NULL,
        channel_id     INTEGER NOT NULL,
        period         TEXT NOT NULL CHECK (period IN ('daily', 'weekly', 'monthly')),
        editions       INTEGER,
        until          TEXT,
        title          TEXT,
        anchor         TEXT NOT NULL,
        anchor_edition INTEGER NOT NULL DEFAULT 1,
        stopped_at     TEXT,
        created_by     INTEGER NOT NULL,
        created_at     TEXT NOT NULL
    );
    CREATE INDEX tournament_schedules_by_guild ON tournament_schedules (guild_id, id);
    ALTER TABLE tournaments ADD COLUMN schedule_id INTEGER REFERENCES tournament_schedules (id);
    ALTER TABLE tournaments ADD COLUMN edition INTEGER;
    ALTER TABLE tournaments ADD COLUMN discord_event_id INTEGER;
    ALTER TABLE tournaments ADD COLUMN discord_event_status TEXT;
    CREATE UNIQUE INDEX one_edition_per_number ON tournaments (schedule_id, edition);
    CREATE TABLE tournament_titles (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        user_id       INTEGER NOT NULL,
        guild_id      INTEGER NOT NULL,
        schedule_id   INTEGER NOT NULL REFERENCES tournament_schedules (id),
        title         TEXT NOT NULL,
        name          TEXT,
        won_at        TEXT NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE INDEX tournament_titles_by_player ON tournament_titles (user_id, guild_id);
    CREATE INDEX tournament_titles_by_schedule ON tournament_titles (schedule_id, won_at);
    """,
    # 17: roles that call players, and rating-tier roles (issue 37). Each server's role pinged when
    # one of its tournaments opens and when it starts, and its role pinged when someone seeks a game
    # (NULL: none); the width of its rating bands (NULL: no tier roles) and the role of each band
    # (``lowest``: the lowest rating in it). Each call made, claimed before it is posted so that it
    # is made once: a server's seek call (``what`` 'seek', again only after its cooldown), an
    # event's (``tournament:<id>:open``, ``tournament:<id>:start``, ever once).
    """
    ALTER TABLE guild_settings ADD COLUMN tournament_role INTEGER;
    ALTER TABLE guild_settings ADD COLUMN seek_role INTEGER;
    ALTER TABLE guild_settings ADD COLUMN tier_step INTEGER;
    CREATE TABLE tier_roles (
        guild_id INTEGER NOT NULL,
        lowest   INTEGER NOT NULL,
        role_id  INTEGER NOT NULL,
        PRIMARY KEY (guild_id, lowest)
    );
    CREATE TABLE role_calls (
        guild_id  INTEGER NOT NULL,
        what      TEXT NOT NULL,
        called_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, what)
    );
    """,
    # 18: seasons and badges. A server's season (``bot.seasons``) is opened by its first rated game
    # (its bounds, its length then, the channel of its latest rated game outside a thread) and
    # closed once by the sweep (``closed_at`` set where it is NULL, with its badges, in one
    # write); the post of its podium is noted (``message_id``). A badge is kept once per player
    # and key: a season's podium (``guild:start:variant``, its place and points gained), the first
    # win against the Expert. Rated changes are found by rule set and time for a season's board.
    # Each server chooses its seasons' length and, if it likes, the channel of their podiums.
    """
    CREATE TABLE seasons (
        guild_id   INTEGER NOT NULL,
        starts_at  TEXT NOT NULL,
        ends_at    TEXT NOT NULL,
        length     TEXT NOT NULL CHECK (length IN ('weekly', 'monthly', 'quarterly')),
        channel_id INTEGER,
        closed_at  TEXT,
        message_id INTEGER,
        PRIMARY KEY (guild_id, starts_at)
    );
    CREATE INDEX seasons_to_close ON seasons (ends_at) WHERE closed_at IS NULL;
    CREATE TABLE badges (
        user_id   INTEGER NOT NULL,
        kind      TEXT NOT NULL CHECK (kind IN ('season', 'expert')),
        key       TEXT NOT NULL,
        place     INTEGER,
        figure    INTEGER,
        earned_at TEXT NOT NULL,
        PRIMARY KEY (user_id, kind, key)
    );
    CREATE INDEX rating_changes_by_time ON rating_changes (variant, changed_at);
    ALTER TABLE guild_settings ADD COLUMN season_length TEXT NOT NULL DEFAULT 'monthly'
        CHECK (season_length IN ('weekly', 'monthly', 'quarterly'));
    ALTER TABLE guild_settings ADD COLUMN season_channel INTEGER;
    """,
    # 19: team battles (issue 37). A battle is an arena whose players score for teams, each team
    # a role of the server picked by the moderator: its number in the battle (the moderator's
    # order), the role and its name then (kept if the role is deleted), written with the event in
    # one transaction and copied with it to a recurring event's next edition. ``leaders``: how many
    # of each team's best players count (NULL: not a battle). A player's team is fixed when they
    # join (NULL outside a battle).
    """
    CREATE TABLE tournament_teams (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        team          INTEGER NOT NULL,
        role_id       INTEGER NOT NULL,
        name          TEXT NOT NULL,
        PRIMARY KEY (tournament_id, team),
        UNIQUE (tournament_id, role_id)
    );
    ALTER TABLE tournaments ADD COLUMN leaders INTEGER CHECK (leaders >= 1);
    ALTER TABLE tournament_players ADD COLUMN team INTEGER;
    """,
)

#: Every table of the schema, each after those its rows refer to (the order a copy fills them in),
#: with the columns that order its rows.
TABLES: tuple[tuple[str, str], ...] = (
    ("meta", "key"),
    ("games", "id"),
    ("challenges", "id"),
    ("user_settings", "user_id"),
    ("guild_settings", "guild_id"),
    ("ratings", "user_id, variant"),
    ("rating_changes", "game_id, user_id"),
    ("player_stats", "user_id, variant, opponent"),
    ("guild_players", "guild_id, variant, user_id"),
    ("seeks", "id"),
    ("tournament_schedules", "id"),
    ("tournaments", "id"),
    ("tournament_teams", "tournament_id, team"),
    ("tournament_players", "tournament_id, user_id"),
    ("tournament_pairings", "tournament_id, round, board"),
    ("tournament_titles", "tournament_id, user_id"),
    ("analyses", "game_id, depth"),
    ("puzzle_ratings", "user_id"),
    ("puzzle_attempts", "id"),
    ("daily_puzzles", "guild_id, day"),
    ("seasons", "guild_id, starts_at"),
    ("badges", "user_id, kind, key"),
    ("tier_roles", "guild_id, lowest"),
    ("role_calls", "guild_id, what"),
)
