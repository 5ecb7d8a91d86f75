/* The compiled core: the rules of bot/engine/core.py and the expert's alpha-beta, in C.
 *
 * bot/engine/core.py stays the readable reference; this file mirrors it function by function
 * (legal, play, settle, perft) and adds the search that bot/ai/expert.py drives. Everything a
 * caller passes is a state tuple exactly as core.py builds it:
 *
 *     (house_0, ..., house_2n-1, store_A, store_B, to_move, extra)
 *
 * and a rules code, houses and seeds. The code is not a variant's number: it packs the variant's
 * mechanics (bot/engine/rules.py's Mechanics, packed by core.py's compiled_code), so this file
 * names no variant and a new variant made of known mechanics needs no C. mechanics(code) says
 * what make_rules read, for tests/engine/test_registry.py to compare with the registry.
 * Seeds fit in a byte (Kalah 10x10 has 200 seeds in all), so a state is a small byte array.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A rules code: what a grand slam does in its low bits (GrandSlam's members, in their order),
 * then one bit for each other mechanic. */
enum { SLAM_FORBIDDEN, SLAM_NO_CAPTURE, SLAM_FORCED_ONLY, SLAM_CAPTURE_AND_REPLAY, SLAM_NOT_APPLICABLE, SLAM_KINDS };
static const char *const SLAM_NAMES[SLAM_KINDS] = {
    "forbidden", "no capture", "only when forced", "captures, then an extra move", "not applicable"};
enum { SLAM_BITS = 7, SINGLE_SEED = 8, STRANDED_TO_OPPONENT = 16, STORES_ON_PATH = 32, RULE_BITS = 63 };
#define MAXW 24        /* 20 houses, two stores, the turn, the extra-move flag */
#define MAXDEPTH 200   /* iterative deepening stops here (depths are kept in a byte) */
#define WIN 1000
#define INF 1000000
#define QUIESCENCE_PLIES 6
#define NAMED 10        /* the evaluation's named features (features() below)... */
#define TABLE_HOUSES 6  /* ... then, in rows of this many houses, one per house and seed count: */
#define TABLE_SEEDS 12  /* 0 to 11 seeds, and 12 or more */
#define FEATURES (NAMED + 2 * TABLE_HOUSES * (TABLE_SEEDS + 1))
#define WEIGHT_ONE 64   /* its weights come in 1/64 of a quarter seed */

/* The search's techniques, each kept because a match showed it gains (bot/ai/tune.py match
 * --a-without ...): search's `techniques` argument turns them off one by one for such matches.
 * Principal-variation search and aspiration windows were tried that way and did not gain. */
enum {
    KILLERS = 1,     /* the quiet moves that last cut off at this ply are tried early */
    HISTORY = 2,     /* then quiet moves by how often they cut off anywhere */
    REDUCTIONS = 4,  /* late quiet moves are searched a ply or two shallower first */
    KEEP = 8,        /* the transposition table is kept from one search to the next (see below) */
    BUCKETS = 16,    /* two table entries a key: the deeper one kept, the newest beside it */
    CYCLES = 32,     /* a value resting on a repetition of a position above it stays on its line */
    ALL_TECHNIQUES = KILLERS | HISTORY | REDUCTIONS | KEEP | BUCKETS | CYCLES
};

typedef uint8_t u8;
typedef uint64_t u64;

/* One rule set with its precomputed sowing paths. */
typedef struct {
    int code, slam, single_seed, stranded_to_opponent, on_path;  /* the rules code, unpacked */
    int n, pits, width, half, lap;
    int store[2], turn, extra;
    u8 path[20][22];      /* slots seeds from house i fall into, in order, for one lap */
    u8 fed[20][23];       /* houses of the opponent's row among the first r slots of path[i] */
} Rules;

typedef struct { u8 s[MAXW]; } State;

/* ---------------------------------------------------------------------------------------- */
/* rules                                                                                      */

static int make_rules(Rules *r, int code, int houses, int seeds)
{
    if (code < 0 || (code & ~RULE_BITS) || (code & SLAM_BITS) >= SLAM_KINDS || houses < 1 || houses > 10
        || (long)houses * 2 * seeds > 255)
        return -1;
    r->code = code;
    r->slam = code & SLAM_BITS;
    r->single_seed = !!(code & SINGLE_SEED);
    r->stranded_to_opponent = !!(code & STRANDED_TO_OPPONENT);
    r->on_path = !!(code & STORES_ON_PATH);
    r->n = houses;
    r->pits = 2 * houses;
    r->width = r->pits + 4;
    r->store[0] = r->pits;
    r->store[1] = r->pits + 1;
    r->turn = r->pits + 2;
    r->extra = r->pits + 3;
    r->half = houses * seeds;  /* total // 2 */
    r->lap = r->on_path ? r->pits + 1 : r->pits - 1;
    for (int i = 0; i < r->pits; i++) {
        int mover = i < houses ? 0 : 1, k = 0;
        if (r->on_path) {
            /* own row, own store, the opponent's row; starting after house i, ending on it */
            int lap[21], m = 0, start = 0;
            for (int j = 0; j < houses; j++) lap[m++] = mover * houses + j;
            lap[m++] = r->store[mover];
            for (int j = 0; j < houses; j++) lap[m++] = (1 - mover) * houses + j;
            for (int j = 0; j < m; j++) if (lap[j] == i) start = j;
            for (int j = 1; j <= m; j++) r->path[i][k++] = (u8)lap[(start + j) % m];
        } else {
            for (int step = 1; step < r->pits; step++) r->path[i][k++] = (u8)((i + step) % r->pits);
        }
        r->fed[i][0] = 0;
        for (int j = 0; j < r->lap; j++) {
            int slot = r->path[i][j];
            int theirs = slot < r->pits && (slot < houses ? 0 : 1) != mover;
            r->fed[i][j + 1] = (u8)(r->fed[i][j] + theirs);
        }
    }
    return 0;
}

static inline int row_sum(const Rules *r, const u8 *s, int player)
{
    int total = 0;
    for (int j = player * r->n; j < (player + 1) * r->n; j++) total += s[j];
    return total;
}

static inline int in_row(const Rules *r, int slot, int player)
{
    return slot >= player * r->n && slot < (player + 1) * r->n;
}

/* Sow house i of s into out; returns the slot of the last seed. */
static inline int sow(const Rules *r, const u8 *s, int i, u8 *out)
{
    int k = s[i], laps = k / r->lap, rest = k % r->lap;
    const u8 *path = r->path[i];
    memcpy(out, s, (size_t)r->width);
    out[i] = 0;
    if (laps)
        for (int j = 0; j < r->lap; j++) out[path[j]] += (u8)laps;
    for (int j = 0; j < rest; j++) out[path[j]]++;
    return path[(k - 1) % r->lap];
}

static inline int fed_by(const Rules *r, const u8 *s, int i)
{
    int k = s[i];
    return (k / r->lap) * r->fed[i][r->lap] + r->fed[i][k % r->lap];
}

/* Houses of 2 or 3 seeds taken by a last seed in `last`, walking back (rule 2): first, count. */
static inline int chain(const Rules *r, const u8 *sown, int last, int opponent, int *first, int *taken)
{
    int j = last, sum = 0, lo = opponent * r->n;
    while (j >= lo && (sown[j] == 2 || sown[j] == 3)) sum += sown[j--];
    *first = j + 1;
    *taken = sum;
    return last - j;
}

/* What one move did (for Python's Effect). */
typedef struct { int first, count, taken, slam, replay, last; int kalah_pair[2]; } Effect;

static void play(const Rules *r, const u8 *s, int i, u8 *out, Effect *e)
{
    int mover = s[r->turn], opponent = 1 - mover;
    int last = sow(r, s, i, out);
    if (e) { e->count = 0; e->taken = 0; e->slam = 0; e->replay = 0; e->last = last; e->first = 0; }
    if (r->on_path) {
        if (last == r->store[mover]) {
            if (e) { e->replay = 1; e->last = -1; }
            return;  /* the turn stays */
        }
        out[r->turn] = (u8)opponent;
        if (in_row(r, last, mover) && out[last] == 1) {
            int facing = r->pits - 1 - last;
            if (e) { e->count = 2; e->kalah_pair[0] = last; e->kalah_pair[1] = facing; e->taken = 1 + out[facing]; }
            out[r->store[mover]] += (u8)(1 + out[facing]);
            out[last] = out[facing] = 0;
        }
        return;
    }
    out[r->turn] = (u8)opponent;
    int first = 0, taken = 0, count = 0;
    if (in_row(r, last, opponent)) count = chain(r, out, last, opponent, &first, &taken);
    int slam = count && taken == row_sum(r, out, opponent);
    if (e) e->slam = slam;
    if (slam && r->slam == SLAM_NO_CAPTURE) count = 0;
    if (!count && !s[r->extra]) return;
    if (e) { e->first = first; e->count = count; e->taken = count ? taken : 0; }
    if (count) {
        memset(out + first, 0, (size_t)count);
        out[r->store[mover]] += (u8)taken;
    }
    out[r->extra] = 0;
    if (slam && r->slam == SLAM_CAPTURE_AND_REPLAY && out[r->store[mover]] <= r->half) {
        out[r->turn] = (u8)mover;
        out[r->extra] = 1;
        if (e) e->replay = 1;
    }
}

/* Whether emptying house i leaves the opponent any seed (after sowing and capturing). Only a
 * last seed in the opponent's row, with few enough seeds there to be taken, needs the sowing. */
static int leaves_seeds(const Rules *r, const u8 *s, int i, int waiting)
{
    u8 out[MAXW];
    int opponent = 1 - s[r->turn], k = s[i];
    int after = waiting + fed_by(r, s, i), first, taken;
    if (!in_row(r, r->path[i][(k - 1) % r->lap], opponent) || after > 3 * r->n) return after > 0;
    int last = sow(r, s, i, out);
    chain(r, out, last, opponent, &first, &taken);
    return after > taken;
}

/* Legal house indices for the player to move, as core.Machine.legal. Returns how many. */
static int legal(const Rules *r, const u8 *s, int *moves)
{
    int mover = s[r->turn], n = r->n, lo = mover * n, count = 0, most = 0;
    for (int j = lo; j < lo + n; j++) {
        if (s[j]) moves[count++] = j;
        if (s[j] > most) most = s[j];
    }
    if (r->on_path || !count) return count;
    if (r->single_seed && most > 1) {
        int kept = 0;
        for (int m = 0; m < count; m++) if (s[moves[m]] > 1) moves[kept++] = moves[m];
        count = kept;
    }
    int waiting = row_sum(r, s, 1 - mover), kept = 0;
    if (r->slam == SLAM_NO_CAPTURE || (r->slam == SLAM_CAPTURE_AND_REPLAY && !s[r->extra])) {
        if (waiting) return count;
        for (int m = 0; m < count; m++) if (fed_by(r, s, moves[m])) moves[kept++] = moves[m];
        return kept;
    }
    for (int m = 0; m < count; m++) if (leaves_seeds(r, s, moves[m], waiting)) moves[kept++] = moves[m];
    if (!kept && r->slam == SLAM_FORCED_ONLY) return count;
    return kept;
}

static inline int majority(const Rules *r, const u8 *s)
{
    return s[r->store[0]] > r->half || s[r->store[1]] > r->half;
}

/* Each player takes the seeds of their own row (a cycle's end, or a stuck game). */
static void share_rows(const Rules *r, const u8 *s, u8 *out)
{
    memcpy(out, s, (size_t)r->width);
    out[r->store[0]] += (u8)row_sum(r, s, 0);
    out[r->store[1]] += (u8)row_sum(r, s, 1);
    memset(out, 0, (size_t)r->pits);
    out[r->extra] = 0;
}

/* The final state when the player to move cannot move (Awari: all to the opponent). */
static void settle(const Rules *r, const u8 *s, u8 *out)
{
    if (!r->stranded_to_opponent) { share_rows(r, s, out); return; }
    memcpy(out, s, (size_t)r->width);
    out[r->store[1 - s[r->turn]]] += (u8)(row_sum(r, s, 0) + row_sum(r, s, 1));
    memset(out, 0, (size_t)r->pits);
    out[r->extra] = 0;
}

/* ---------------------------------------------------------------------------------------- */
/* positions seen: the game's history plus the line searched, for the repetition ending        */

static u64 zobrist[MAXW][256];

static void init_zobrist(void)
{
    u64 x = 0x9E3779B97F4A7C15ULL;
    for (int p = 0; p < MAXW; p++)
        for (int v = 0; v < 256; v++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;  /* xorshift64 */
            zobrist[p][v] = x;
        }
}

static inline u64 hash_of(const Rules *r, const u8 *s)
{
    u64 h = 0;
    for (int p = 0; p < r->width; p++) h ^= zobrist[p][s[p]];
    return h;
}

/* A stack of positions. Stores only grow in a capture game, so a repetition can only be found
 * among the entries with as many captured seeds as now: scanning stops at the first with fewer. */
typedef struct { u64 hash; int captured; State state; } Seen;
/* count[]: how many entries fall in each of 1,024 buckets of their hash, so that most positions
 * are known new without a scan (a long capture-free endgame makes the scan long). */
typedef struct { Seen *items; int size, capacity; uint16_t count[1024]; } Path;

static inline int bucket_of(u64 hash) { return (int)(hash >> 54); }

static int path_push(Path *p, const Rules *r, const u8 *s, u64 hash)
{
    if (p->size == p->capacity) {
        int capacity = p->capacity ? 2 * p->capacity : 256;
        Seen *items = realloc(p->items, sizeof(Seen) * (size_t)capacity);
        if (!items) return -1;
        p->items = items;
        p->capacity = capacity;
    }
    Seen *e = &p->items[p->size++];
    p->count[bucket_of(hash)]++;
    e->hash = hash;
    e->captured = s[r->store[0]] + s[r->store[1]];
    memcpy(e->state.s, s, (size_t)r->width);
    return 0;
}

static inline void path_pop(Path *p)
{
    p->count[bucket_of(p->items[--p->size].hash)]--;
}

/* Where s is on the path (its index from the bottom), or -1. */
static int path_index(const Path *p, const Rules *r, const u8 *s, u64 hash)
{
    if (!p->count[bucket_of(hash)]) return -1;
    int captured = s[r->store[0]] + s[r->store[1]];
    for (int k = p->size - 1; k >= 0; k--) {
        const Seen *e = &p->items[k];
        if (e->captured < captured) return -1;
        if (e->hash == hash && !memcmp(e->state.s, s, (size_t)r->width)) return k;
    }
    return -1;
}

static inline int path_has(const Path *p, const Rules *r, const u8 *s, u64 hash) { return path_index(p, r, s, hash) >= 0; }

/* ---------------------------------------------------------------------------------------- */
/* perft                                                                                      */

static unsigned long long perft(const Rules *r, const u8 *s, int depth, Path *seen)
{
    int moves[10], count = legal(r, s, moves);
    if (depth == 1) return (unsigned long long)count;
    unsigned long long total = 0;
    for (int m = 0; m < count; m++) {
        u8 child[MAXW];
        play(r, s, moves[m], child, NULL);
        if (majority(r, child)) continue;
        if (!r->on_path) {
            u64 h = hash_of(r, child);
            if (path_has(seen, r, child, h)) continue;
            if (path_push(seen, r, child, h)) return total;  /* out of memory: a short count */
            total += perft(r, child, depth - 1, seen);
            path_pop(seen);
        } else {
            total += perft(r, child, depth - 1, seen);
        }
    }
    return total;
}

/* ---------------------------------------------------------------------------------------- */
/* endgame tables                                                                            */
/*
 * Every position of a capture variant with at most N seeds on the board, the player to move
 * first (rows swapped when B moves), for every split of the captured seeds that leaves the game
 * going (each store at most half). Its value is the final margin (mover's seeds minus the
 * opponent's) under best play: best result, then best margin.
 *
 * Repetitions. The rules end a game at a repeated position, each player taking their own row:
 * the value of a position can depend on the positions seen before it. The tables hold the value
 * only where it does not: two values are computed, `lo` where any cycle counts as lost for the
 * player to move (-inf) and `hi` where it counts as won (+inf); each is the fixed point of
 * negamax over the position graph (lo from below, hi from above). lo <= the true value <= hi
 * whatever a repetition would score, so where lo == hi that is the value, reached without relying
 * on a repetition. Elsewhere the table keeps what the bounds say of the result: a win by at least
 * lo (lo > 0), a loss by at least -hi (hi < 0), at least or at most a draw; the expert searches
 * such a position, but cuts off at once where that is enough for its window.
 *
 * One byte a position (the file): a margin of -48..48 is exact; WIN_CODE + m a win by at least
 * m; -(WIN_CODE + m) a loss by at least m; WIN_CODE at least a draw, -WIN_CODE at most one;
 * UNKNOWN nothing. Files written before the bounds were kept hold margins and UNKNOWN only.
 *
 * Layers: a capture lowers the seeds on board and stores never give seeds back, so layer s (s
 * seeds on board) depends only on itself and lower layers; layers are solved from 0 up, each by
 * sweeping it until nothing changes.
 *
 * A position's index: offset of its layer, then the rank of its board among the boards of s
 * seeds (lexicographic), times the s + 1 possible stores of the mover (half - s .. half).
 */

#define MAXSEEDS 24
#define UNKNOWN (-128)
#define BOUND 127
#define WIN_CODE 64   /* codes beyond +-48 (no margin is larger): bounds, see above */

/* A position's byte from its bounds (margins, -BOUND and BOUND for none). */
static int8_t table_code(int lo, int hi)
{
    if (lo == hi) return (int8_t)lo;
    if (lo > 0) return (int8_t)(WIN_CODE + (lo < BOUND - WIN_CODE ? lo : BOUND - WIN_CODE));
    if (hi < 0) return (int8_t)-(WIN_CODE + (-hi < BOUND - WIN_CODE ? -hi : BOUND - WIN_CODE));
    if (lo == 0) return WIN_CODE;
    if (hi == 0) return -WIN_CODE;
    return UNKNOWN;
}

/* The bounds a byte says (margins; -BOUND and BOUND for none): the inverse of table_code. */
static void code_bounds(int code, int *lo, int *hi)
{
    *lo = -BOUND;
    *hi = BOUND;
    if (code == UNKNOWN) return;
    if (code > -WIN_CODE && code < WIN_CODE) *lo = *hi = code;
    else if (code >= WIN_CODE) *lo = code - WIN_CODE;
    else *hi = code + WIN_CODE;
}

typedef struct {
    const Rules *r;
    int N;
    long long ways[13][MAXSEEDS + 1];               /* boards of k seeds in h houses */
    long long before[12][MAXSEEDS + 1][MAXSEEDS + 1]; /* boards ranked before house i holding x */
    long long offset[MAXSEEDS + 2];
    int8_t *lo, *hi;                                 /* while building; final: one byte, lo */
} Tables;

static void layout(Tables *t, const Rules *r, int N)
{
    t->r = r;
    t->N = N;
    for (int h = 0; h <= 12; h++)
        for (int k = 0; k <= MAXSEEDS; k++)
            t->ways[h][k] = h == 0 ? k == 0 : 0;
    for (int h = 1; h <= 12; h++)
        for (int k = 0; k <= MAXSEEDS; k++)
            for (int x = 0; x <= k; x++) t->ways[h][k] += t->ways[h - 1][k - x];
    for (int i = 0; i < 12; i++)
        for (int rest = 0; rest <= MAXSEEDS; rest++) {
            long long sum = 0;
            for (int x = 0; x <= MAXSEEDS; x++) {
                t->before[i][rest][x] = sum;
                if (x <= rest) sum += t->ways[11 - i][rest - x];
            }
        }
    t->offset[0] = 0;
    for (int s = 0; s <= N; s++) t->offset[s + 1] = t->offset[s] + t->ways[12][s] * (s + 1);
}

/* The index of a position (player to move first), or -1 when it is not in the tables. */
static long long table_index(const Tables *t, const u8 *s)
{
    const Rules *r = t->r;
    int mover = s[r->turn], seeds = 0, rest;
    u8 board[12];
    for (int j = 0; j < 12; j++) seeds += (board[j] = s[(j + 6 * mover) % 12]);
    int own = s[r->store[mover]];
    if (seeds > t->N || s[r->extra] || own > r->half || own < r->half - seeds) return -1;
    long long rank = 0;
    rest = seeds;
    for (int i = 0; i < 11; i++) {
        rank += t->before[i][rest][board[i]];
        rest -= board[i];
    }
    return t->offset[seeds] + rank * (seeds + 1) + (own - (r->half - seeds));
}

/* ---------------------------------------------------------------------------------------- */
/* the search                                                                                 */

enum { EXACT, LOWER, UPPER };

typedef struct {
    u64 key;
    int16_t score;
    uint8_t depth;
    uint8_t flag;    /* EXACT, LOWER, UPPER; +4 when the value is proven (no horizon under it);
                      * +8 or +16 when it rests on a repetition (see REPEATED) */
    int8_t move;
    uint8_t age;     /* the search that wrote it (a kept table's older entries give way) */
    uint8_t pad[2];
} Entry;

/* An entry's flag bits: its value rests on a position repeated on the path it was searched with,
 * REPEATED one of the game before the search's root (true of every line of this search, not of
 * the next search's), ON_LINE one of the line above it (true of that line only: other lines and
 * searches take only its move). With CYCLES, a value that rests only on the position itself
 * coming back, or on positions below it, has neither: wherever the position is reached, its
 * subtree's cycles end there as they did (the rest of the path aside, as a table always has it);
 * without CYCLES, any repetition is REPEATED. */
#define REPEATED 8
#define ON_LINE 16
/* Search.leans_on when no repetition was met; -1 stands for a position of the game before the root. */
#define NO_REPETITION INT_MAX

/* The transposition table holds about one entry per node the budget allows (16 bytes each),
 * between 2^16 and 2^22 entries: a large table costs time to clear, which short moves lack. */
#define TABLE_BITS_MIN 16
#define TABLE_BITS_MAX 22
#define NODES_PER_SECOND 3e6

static int table_bits(double seconds, long long max_nodes)
{
    double nodes = max_nodes ? (double)max_nodes : seconds * NODES_PER_SECOND;
    int bits = TABLE_BITS_MIN;
    while (bits < TABLE_BITS_MAX && (double)((u64)1 << bits) < nodes) bits++;
    return bits;
}

/* The kept table (KEEP): a search on a time budget leaves its table for the next one, which
 * then starts from what it found two plies up (the move before and the reply), a ply or so
 * deeper at once. Node-budget searches never use it: they must answer the same whatever ran
 * before. One search at a time owns it; another one meanwhile gets a table of its own. An entry
 * whose value rests on a repetition (REPEATED) was right for the game's history of the search
 * that wrote it: a later search takes only its move. */
static Entry *kept_table;
static int kept_bits;
static char kept_busy;
static uint8_t kept_age;

/* A kept entry is only good under the same rules, evaluation and endgame table: their salt, mixed
 * into every key, makes the others' entries miss (splitmix64 over the numbers). */
static u64 salt_of(const Rules *r, const int *weights, int table_seeds)
{
    u64 salt = 0x6A09E667F3BCC909ULL;
    int values[4 + FEATURES] = {r->code, r->n, r->half, table_seeds};
    if (weights) memcpy(values + 4, weights, sizeof(int) * FEATURES);
    for (int k = 0; k < 4 + FEATURES; k++) {
        u64 x = salt + (u64)(uint32_t)values[k] + 0x9E3779B97F4A7C15ULL;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
        salt = x ^ (x >> 31);
    }
    return salt;
}

/* A zeroed table of 2^bits entries starting on a cache line, so that a pair of entries (see
 * BUCKETS) is one fetch from memory. calloc keeps untouched pages out of memory; the line's start
 * is found inside it, and the table's last entry says where calloc's block began, for free. */
#define LINE 64
static Entry *new_table(int bits)
{
    size_t size = (size_t)1 << bits;
    char *block = calloc(size + LINE / sizeof(Entry) + 1, sizeof(Entry));
    if (!block) return NULL;
    Entry *table = (Entry *)(block + (LINE - (uintptr_t)block % LINE) % LINE);
    memcpy(&table[size], &block, sizeof block);
    return table;
}

static void free_table(Entry *table, int bits)
{
    char *block;
    if (!table) return;
    memcpy(&block, &table[(size_t)1 << bits], sizeof block);
    free(block);
}

static Entry *take_table(int bits, int keep)
{
    if (keep && !__atomic_test_and_set(&kept_busy, __ATOMIC_ACQUIRE)) {
        if (kept_bits != bits) {
            free_table(kept_table, kept_bits);
            kept_table = new_table(bits);
            kept_bits = kept_table ? bits : 0;
        }
        if (kept_table) return kept_table;
        __atomic_clear(&kept_busy, __ATOMIC_RELEASE);
        return NULL;
    }
    return new_table(bits);
}

static void give_back_table(Entry *table, int bits)
{
    if (table == kept_table) __atomic_clear(&kept_busy, __ATOMIC_RELEASE);
    else free_table(table, bits);
}

typedef struct {
    const Rules *r;
    Path path;
    Entry *table;
    u64 mask;
    long long nodes, max_nodes;
    double deadline;
    int out_of_time;
    int horizon;     /* the line searched met the horizon (its value is an estimate) */
    int leans_on;    /* the lowest path index of a repetition the value searched rests on */
    int before_root; /* the path's entries from the game before the root */
    PyThreadState *released;  /* the search runs without the GIL; taken back for progress calls */
    const int8_t *known;      /* the endgame table, if any: exact values where it has them */
    Tables tables;
    const int *weights;       /* the evaluation's weights (NULL: the hand-set evaluation) */
    int weight[FEATURES];
    int techniques;           /* which of KILLERS, HISTORY... are on */
    u64 salt;                 /* mixed into the table's keys: what the values depend on (see KEEP) */
    uint8_t age;              /* written into its entries (see BUCKETS) */
    int ply;                  /* plies from the root */
    int8_t killer[MAXDEPTH + 1][2];
    int history[20];          /* per house: how much cutting off there has earned it */
} Search;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The entry holding key, or NULL. With BUCKETS a key may sit in either entry of its pair. */
static inline Entry *probe(const Search *z, u64 key)
{
    Entry *e = &z->table[key & z->mask];
    if (e->key == key) return e;
    if (z->techniques & BUCKETS) {
        e = &z->table[(key & z->mask) ^ 1];
        if (e->key == key) return e;
    }
    return NULL;
}

/* Where to write key's entry, searched to depth. With BUCKETS, the pair's first entry keeps the
 * deepest search of this search's age (older ones give way), the second takes the rest: a deep
 * result is not lost to the many shallow ones written after it. */
static inline Entry *slot_for(const Search *z, u64 key, int depth)
{
    if (!(z->techniques & BUCKETS)) return &z->table[key & z->mask];
    Entry *first = &z->table[(key & z->mask) & ~(u64)1], *second = first + 1;
    if (second->key == key) return second;
    if (first->key == key) return first;
    if (first->age != z->age || depth >= first->depth) {
        *second = *first;  /* the entry it displaces is still worth a probe */
        return first;
    }
    return second;
}

/* Checked every 1,024 nodes: a tenth of a millisecond at this speed. */
static inline int stop(Search *z)
{
    if ((++z->nodes & 1023) == 0) {
        if (z->max_nodes ? z->nodes >= z->max_nodes : now() >= z->deadline) z->out_of_time = 1;
    }
    return z->out_of_time;
}

/* A final margin as a search score: a draw, or a win or loss by that many seeds. */
static inline int margin_score(int margin)
{
    return margin == 0 ? 0 : margin > 0 ? WIN + margin : -WIN + margin;
}

static int final_score(const Rules *r, const u8 *final, int mover)
{
    return margin_score(final[r->store[mover]] - final[r->store[1 - mover]]);
}

static inline int floor_half(int x) { return x >= 0 ? x / 2 : -((-x + 1) / 2); }

/* The evaluation's features of a position, for the player to move (as features() in
 * bot/ai/expert.py, the readable reference): what bot/ai/tune.py fits weights to. */

/* The seeds player p's last seed would take if p moved now, at best (sowings of less than a
 * lap, as the board stands: houses of 1-2 seeds that the sowing makes 2-3, walking back). */
static inline int threat(const Rules *r, const u8 *s, int p)
{
    int best = 0, lo = (1 - p) * r->n, hi = lo + r->n;
    for (int i = p * r->n; i < (p + 1) * r->n; i++) {
        int k = s[i];
        if (!k || k >= r->lap) continue;
        int last = (i + k) % r->pits, sum = 0;
        if (last < lo || last >= hi) continue;
        for (int j = last; j >= lo && (s[j] == 1 || s[j] == 2); j--) sum += s[j] + 1;
        if (sum > best) best = sum;
    }
    return best;
}

/* Where the house tables' features that are 1 sit among the features: for each house of the
 * mover's row, then of the other's, the one of its count of seeds. Returns how many (none on a
 * board of other than TABLE_HOUSES houses a row). */
static inline int table_features(const Rules *r, const u8 *s, int *index)
{
    if (r->n != TABLE_HOUSES) return 0;
    for (int side = 0; side < 2; side++) {
        const u8 *row = s + (side ? 1 - s[r->turn] : s[r->turn]) * r->n;
        for (int q = 0; q < TABLE_HOUSES; q++) {
            int house = side * TABLE_HOUSES + q;
            index[house] = NAMED + house * (TABLE_SEEDS + 1) + (row[q] < TABLE_SEEDS ? row[q] : TABLE_SEEDS);
        }
    }
    return 2 * TABLE_HOUSES;
}

/* The named features (the house tables' are found where they are used: one 1 a house). */
static void features(const Rules *r, const u8 *s, int nmoves, int *f)
{
    int mover = s[r->turn], other = 1 - mover;
    memset(f, 0, sizeof(int) * NAMED);
    f[0] = s[r->store[mover]] - s[r->store[other]];
    f[4] = nmoves;
    for (int side = 0; side < 2; side++) {
        int player = side ? other : mover, sign = side ? -1 : 1;
        for (int q = 0; q < r->n; q++) {
            int seeds = s[player * r->n + q];
            f[1] += sign * seeds;
            f[2] += sign * (seeds >= 12);
            f[3] -= sign * (seeds > 0 && seeds < 3);
            f[5] -= sign * (seeds == 0);
            f[6] += sign * (seeds >= r->n - q);
            if (2 * q < r->n) f[9] += sign * seeds;
        }
    }
    f[7] = threat(r, s, mover);
    f[8] = threat(r, s, other);
}

/* The expert's evaluation, in quarter seeds, for the player to move (as ExpertPlayer.evaluate).
 * Without weights (w NULL), the hand-set evaluation; with them, their sum over the features. */
static int evaluate(const Rules *r, const u8 *s, int nmoves, const int *w)
{
    int mover = s[r->turn], other = 1 - mover;
    int margin = s[r->store[mover]] - s[r->store[other]];
    int own = row_sum(r, s, mover), theirs = row_sum(r, s, other), kroo = 0, weak = 0, value;
    if (w && !r->on_path) {
        int f[NAMED];
        long sum = 0;
        features(r, s, nmoves, f);
        int index[2 * TABLE_HOUSES], ones = table_features(r, s, index);
        for (int k = 0; k < NAMED; k++) sum += (long)w[k] * f[k];
        for (int k = 0; k < ones; k++) sum += w[index[k]];  /* the tables': one 1 a house, the rest 0 */
        value = (int)(sum >= 0 ? sum / WEIGHT_ONE : -((-sum + WEIGHT_ONE - 1) / WEIGHT_ONE));
    } else {
        for (int j = mover * r->n; j < (mover + 1) * r->n; j++) {
            kroo += s[j] >= 12;
            weak -= s[j] > 0 && s[j] < 3;
        }
        for (int j = other * r->n; j < (other + 1) * r->n; j++) {
            kroo -= s[j] >= 12;
            weak += s[j] > 0 && s[j] < 3;
        }
        if (r->on_path)
            value = 4 * margin + 2 * (own - theirs) + nmoves;
        else
            value = 4 * margin + floor_half(own - theirs) + 2 * kroo + weak + nmoves / 2;
    }
    if (value >= WIN) value = WIN - 1;
    if (value <= -WIN) value = -WIN + 1;
    return value;
}

/* The game's end at s, if any, as a score for the player to move; returns 1 when it ended. */
static int ended(Search *z, const u8 *s, u64 hash, int *score)
{
    const Rules *r = z->r;
    u8 final[MAXW];
    int mover = s[r->turn];
    if (majority(r, s)) { *score = final_score(r, s, mover); return 1; }
    int at;
    if (!r->on_path && (at = path_index(&z->path, r, s, hash)) >= 0) {
        share_rows(r, s, final);
        *score = final_score(r, final, mover);
        z->horizon = 1;  /* this line's ending: the table takes it to lines where nothing repeats */
        if (at < z->leans_on) z->leans_on = at;
        return 1;
    }
    return 0;
}

/* Moves in search order, with their children: the table's move first, then captures by size
 * (an extra turn counts half a seed), then the killers, then the quiet moves by their history,
 * then the bigger houses. quiet[m] says which moves neither capture nor move again. */
static void order(const Search *z, const u8 *s, int *moves, int count, int hint, u8 (*children)[MAXW], u64 *hashes, int *quiet)
{
    const Rules *r = z->r;
    long long keys[10];
    int mover = s[r->turn], store = r->store[mover], ply = z->ply <= MAXDEPTH ? z->ply : MAXDEPTH;
    u8 played[10][MAXW];
    int is_quiet[10];
    u64 hash[10];
    for (int m = 0; m < count; m++) {
        play(r, s, moves[m], played[m], NULL);
        /* the children's table entries are fetched from memory while the others are worked out */
        hash[m] = hash_of(r, played[m]);
        __builtin_prefetch(&z->table[(hash[m] ^ z->salt) & z->mask & ~(u64)1]);
        int gain = played[m][store] - s[store], again = played[m][r->turn] == mover, house = moves[m];
        long long key = (long long)(house == hint) << 50 | (long long)(gain * 2 + again) << 40;
        is_quiet[m] = !gain && !again;
        if (is_quiet[m] && (z->techniques & KILLERS))
            key |= (long long)(z->killer[ply][0] == house) << 39 | (long long)(z->killer[ply][1] == house) << 38;
        if (is_quiet[m] && (z->techniques & HISTORY)) key |= (long long)z->history[house] << 8;
        keys[m] = key | (s[house] < 255 ? s[house] : 255);
    }
    int index[10];
    for (int m = 0; m < count; m++) index[m] = m;
    for (int a = 1; a < count; a++) {  /* insertion sort, stable like Python's sorted */
        int at = index[a], b = a - 1;
        while (b >= 0 && keys[index[b]] < keys[at]) { index[b + 1] = index[b]; b--; }
        index[b + 1] = at;
    }
    int sorted[10];
    for (int m = 0; m < count; m++) {
        sorted[m] = moves[index[m]];
        if (quiet) quiet[m] = is_quiet[index[m]];
        hashes[m] = hash[index[m]];
        memcpy(children[m], played[index[m]], (size_t)r->width);
    }
    memcpy(moves, sorted, sizeof(int) * (size_t)count);
}

static int negamax(Search *z, const u8 *s, u64 hash, int depth, int alpha, int beta);

/* The repetition flag (REPEATED, ON_LINE or none) of the entry of a position at path index `at`
 * whose value rests on a repetition of the path's entry `leans_on`. */
static int repetition_flag(const Search *z, int leans_on, int at)
{
    if (leans_on == NO_REPETITION) return 0;
    if (!(z->techniques & CYCLES)) return REPEATED;
    return leans_on >= at ? 0 : leans_on < z->before_root ? REPEATED : ON_LINE;
}

/* The value of child for s's mover: the same side may move again (an extra turn). */
static int child_value(Search *z, const u8 *s, const u8 *child, u64 child_hash, int depth, int alpha, int beta, u64 hash)
{
    const Rules *r = z->r;
    int value;
    if (path_push(&z->path, r, s, hash)) { z->out_of_time = 1; return 0; }
    z->ply++;
    if (child[r->turn] == s[r->turn]) value = negamax(z, child, child_hash, depth - 1, alpha, beta);
    else value = -negamax(z, child, child_hash, depth - 1, -beta, -alpha);
    z->ply--;
    path_pop(&z->path);
    return value;
}

/* The value of the m-th move (in search order) of a node: a late quiet one (the third on) is
 * searched a ply shallower first, the fifth on two plies where six are left (REDUCTIONS), and
 * again at full depth only if it beats alpha there. Reducing from the fourth move, one ply only,
 * scored 40.5% against this (100 games at 0.1 s). */
static int move_value(Search *z, const u8 *s, const u8 *child, u64 child_hash, int m, int quiet, int depth, int alpha, int beta, u64 hash)
{
    int reduce = (z->techniques & REDUCTIONS) && quiet && m >= 2 && depth >= 3 ? 1 + (m >= 4 && depth >= 6) : 0;
    if (reduce) {
        int score = child_value(z, s, child, child_hash, depth - reduce, alpha, beta, hash);
        if (z->out_of_time || score <= alpha) return score;
    }
    return child_value(z, s, child, child_hash, depth, alpha, beta, hash);
}

/* A quiet move cut off at this ply: remember it as a killer and in the history. */
static void cut_off(Search *z, int house, int depth)
{
    int ply = z->ply <= MAXDEPTH ? z->ply : MAXDEPTH;
    if (z->killer[ply][0] != house) {
        z->killer[ply][1] = z->killer[ply][0];
        z->killer[ply][0] = (int8_t)house;
    }
    z->history[house] += depth * depth;
    if (z->history[house] > 1 << 28)  /* keep the keys in range: halve them all */
        for (int k = 0; k < 20; k++) z->history[k] /= 2;
}

/* Past the horizon, captures only, so no exchange is cut off half-way; the side to move may
 * stand pat at the evaluation. */
static int quiesce(Search *z, const u8 *s, const int *moves, int count, int alpha, int beta, int plies, u64 hash)
{
    const Rules *r = z->r;
    int stand = evaluate(r, s, count, z->weights);
    if (stand >= beta || plies == 0) return stand;
    if (stand > alpha) alpha = stand;
    int mover = s[r->turn], store = r->store[mover];
    if (path_push(&z->path, r, s, hash)) { z->out_of_time = 1; return stand; }
    for (int m = 0; m < count; m++) {
        u8 child[MAXW];
        play(r, s, moves[m], child, NULL);
        if (child[store] == s[store]) continue;  /* not a capture */
        if (stop(z)) break;
        int score, replies[10], n;
        u64 h = hash_of(r, child);
        if (ended(z, child, h, &score)) {
            if (child[r->turn] != mover) score = -score;
        } else if (!(n = legal(r, child, replies))) {
            u8 final[MAXW];
            settle(r, child, final);
            score = final_score(r, final, mover);
        } else if (child[r->turn] == mover) {
            score = quiesce(z, child, replies, n, alpha, beta, plies - 1, h);
        } else {
            score = -quiesce(z, child, replies, n, -beta, -alpha, plies - 1, h);
        }
        if (score > alpha) {
            alpha = score;
            if (alpha >= beta) break;
        }
    }
    path_pop(&z->path);
    return alpha;
}

static int expand(Search *z, const u8 *s, u64 hash, int depth, int alpha, int beta);

/* The value of s for its mover, searched depth plies (fail-soft: at most alpha means at most that,
 * at least beta at least that). In the endgame tables, a position of exact value is not searched;
 * one the tables bound is cut off where the bound settles the window, and its search's estimate
 * is kept within the bounds (a proven bound beats an estimate). */
static int negamax(Search *z, const u8 *s, u64 hash, int depth, int alpha, int beta)
{
    int score, least = -INF, most = INF;  /* what the tables prove of s's value */
    if (stop(z)) return 0;
    if (ended(z, s, hash, &score)) return score;
    if (z->known) {
        long long k = table_index(&z->tables, s);
        if (k >= 0 && z->known[k] != UNKNOWN) {  /* the history aside */
            int lo, hi;
            code_bounds(z->known[k], &lo, &hi);
            if (lo > -BOUND) least = margin_score(lo);
            if (hi < BOUND) most = margin_score(hi);
            if (lo == hi || least >= beta) return least;
            if (most <= alpha) return most;
        }
    }
    score = expand(z, s, hash, depth, alpha, beta);
    return score < least ? least : score > most ? most : score;
}

/* negamax past the tables: the game goes on at s, and its value is not known. */
static int expand(Search *z, const u8 *s, u64 hash, int depth, int alpha, int beta)
{
    const Rules *r = z->r;
    int score, moves[10], count = legal(r, s, moves);
    if (!count) {
        u8 final[MAXW];
        settle(r, s, final);
        return final_score(r, final, s[r->turn]);
    }
    if (depth <= 0) {
        z->horizon = 1;
        return quiesce(z, s, moves, count, alpha, beta, QUIESCENCE_PLIES, hash);
    }
    u64 key = hash ^ z->salt;
    Entry *e = probe(z, key);
    int hint = -1;
    if (e) {
        int proven = e->flag & 4, flag = e->flag & 3;
        hint = e->move;
        /* A value that rests on a repetition holds for the path it was searched with: one of
         * the game's history for this search only (a kept table's is a hint to the next one),
         * one of the line above it for that line only. */
        int repeated = e->flag & REPEATED, stale = (repeated && e->age != z->age) || (e->flag & ON_LINE);
        if ((e->depth >= depth || proven) && !stale) {
            int usable = flag == EXACT || (flag == LOWER && e->score >= beta) || (flag == UPPER && e->score <= alpha);
            if (usable) {
                if (!proven) z->horizon = 1;
                if (repeated) z->leans_on = -1;
                return e->score;
            }
        }
    }
    int original = alpha, best = -INF, best_move = -1, outer = z->horizon, outer_leans_on = z->leans_on, quiet[10];
    u8 children[10][MAXW];
    u64 hashes[10];
    z->horizon = 0;
    z->leans_on = NO_REPETITION;
    order(z, s, moves, count, hint, children, hashes, quiet);
    for (int m = 0; m < count; m++) {
        score = move_value(z, s, children[m], hashes[m], m, quiet[m], depth, alpha, beta, hash);
        if (z->out_of_time) return 0;
        if (score > best) {
            best = score;
            best_move = moves[m];
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    if (quiet[m]) cut_off(z, moves[m], depth);
                    break;
                }
            }
        }
    }
    int flag = best <= original ? UPPER : best >= beta ? LOWER : EXACT;
    e = slot_for(z, key, depth);
    e->key = key;
    e->age = z->age;
    e->score = (int16_t)best;
    e->depth = (uint8_t)(depth > 255 ? 255 : depth);
    e->flag = (uint8_t)(flag | (z->horizon ? 0 : 4) | repetition_flag(z, z->leans_on, z->path.size));
    e->move = (int8_t)best_move;
    z->horizon |= outer;
    if (outer_leans_on < z->leans_on) z->leans_on = outer_leans_on;
    return best;
}


static int margin_of(const Rules *r, const u8 *final, int mover)
{
    return final[r->store[mover]] - final[r->store[1 - mover]];
}

/* New bounds of position s (any player to move, maybe owing Ouril's extra move) from its moves. */
static void bounds(const Tables *t, const u8 *s, int *lo, int *hi)
{
    const Rules *r = t->r;
    u8 child[MAXW], final[MAXW];
    int moves[10], count = legal(r, s, moves), mover = s[r->turn];
    if (!count) {
        settle(r, s, final);
        *lo = *hi = margin_of(r, final, mover);
        return;
    }
    *lo = *hi = -BOUND;
    for (int m = 0; m < count; m++) {
        int l, h;
        play(r, s, moves[m], child, NULL);
        if (majority(r, child)) {
            l = h = margin_of(r, child, mover);
        } else if (child[r->turn] == mover) {
            bounds(t, child, &l, &h);  /* Ouril's extra move after a grand slam */
        } else {
            long long k = table_index(t, child);
            l = -t->hi[k];
            h = -t->lo[k];
        }
        if (l > *lo) *lo = l;
        if (h > *hi) *hi = h;
    }
}

/* What a board's moves lead to, worked out once per layer (stores do not change the moves):
 * the seeds each captures, and where its child sits in the tables (less the mover's store). */
typedef struct { u8 count; u8 gain[6]; long long base[6]; int32_t rank[6]; } Moves;

#define REPLAY 255  /* Ouril's grand slam: the mover plays again; solved by bounds() */

static void board_moves(const Tables *t, const u8 *board, int seeds, Moves *out)
{
    const Rules *r = t->r;
    u8 s[MAXW] = {0}, child[MAXW];
    int moves[10];
    memcpy(s, board, 12);
    out->count = (u8)legal(r, s, moves);
    for (int m = 0; m < out->count; m++) {
        Effect e;
        play(r, s, moves[m], child, &e);
        int gain = child[r->store[0]];
        int left = seeds - gain;
        if (e.replay) { out->gain[m] = REPLAY; continue; }
        out->gain[m] = (u8)gain;
        /* the child, B to move: B's row first; B's store is 2*half - seeds - own */
        u8 rotated[MAXW] = {0};
        for (int j = 0; j < 12; j++) rotated[j] = child[(j + 6) % 12];
        long long rank = 0;
        int rest = left;
        for (int i = 0; i < 11; i++) {
            rank += t->before[i][rest][rotated[i]];
            rest -= rotated[i];
        }
        out->base[m] = t->offset[left] + rank * (left + 1) + (2 * r->half - seeds) - (r->half - left);
        out->rank[m] = (int32_t)rank;
    }
}

/* New bounds of the position (board, own store) from its cached moves. */
static void cached_bounds(const Tables *t, const u8 *board, int seeds, int own, const Moves *moves, int *lo, int *hi)
{
    const Rules *r = t->r;
    int theirs = 2 * r->half - seeds - own;
    if (!moves->count) {
        int mine = 0;
        for (int j = 0; j < 6; j++) mine += board[j];
        if (r->stranded_to_opponent) *lo = *hi = own - theirs - seeds;
        else *lo = *hi = own + mine - theirs - (seeds - mine);
        return;
    }
    *lo = *hi = -BOUND;
    for (int m = 0; m < moves->count; m++) {
        int l, h, gain = moves->gain[m];
        if (gain == REPLAY) {
            u8 s[MAXW] = {0}, child[MAXW];
            int legal_moves[10];
            memcpy(s, board, 12);
            s[r->store[0]] = (u8)own;
            s[r->store[1]] = (u8)theirs;
            legal(r, s, legal_moves);
            play(r, s, legal_moves[m], child, NULL);
            if (majority(r, child)) l = h = margin_of(r, child, 0);
            else bounds(t, child, &l, &h);
        } else if (own + gain > r->half) {
            l = h = own + gain - theirs;
        } else {
            long long k = moves->base[m] - own;
            l = -t->hi[k];
            h = -t->lo[k];
        }
        if (l > *lo) *lo = l;
        if (h > *hi) *hi = h;
    }
}

/* Solve layer `seeds`: sweep its positions until no bound moves. Returns the sweeps made, or -1
 * when memory ran out. */
static int solve_layer(Tables *t, int seeds)
{
    const Rules *r = t->r;
    long long boards = t->ways[12][seeds];
    Moves *cache = malloc(sizeof(Moves) * (size_t)boards);
    u8 *all = malloc(12 * (size_t)boards);
    if (!cache || !all) { free(cache); free(all); return -1; }
    u8 s[12] = {0};
    s[11] = (u8)seeds;  /* the first board in rank order: every seed in the last house */
    for (long long b = 0; b < boards; b++) {
        memcpy(all + 12 * b, s, 12);
        board_moves(t, s, seeds, &cache[b]);
        /* The next board in rank order: the last house i < 11 with seeds after it takes one of
         * them; the rest of them go to the last house. */
        int i = 10, tail = s[11];
        while (i >= 0 && tail == 0) tail += s[i--];
        if (i < 0) break;
        s[i]++;
        for (int j = i + 1; j < 12; j++) s[j] = 0;
        s[11] = (u8)(tail - 1);
    }
    for (long long k = t->offset[seeds]; k < t->offset[seeds + 1]; k++) {
        t->lo[k] = -BOUND;
        t->hi[k] = BOUND;
    }
    /* Who leads here without a capture: board-level predecessors, as compressed rows. */
    int32_t *first = calloc((size_t)boards + 1, sizeof(int32_t)), *from = NULL;
    long long positions = t->offset[seeds + 1] - t->offset[seeds];
    int32_t *queue = malloc(sizeof(int32_t) * (size_t)positions);
    u8 *queued = malloc((size_t)positions);
    int sweeps = -1;
    if (!first || !queue || !queued) goto out;
    for (long long b = 0; b < boards; b++)
        for (int m = 0; m < cache[b].count; m++)
            if (cache[b].gain[m] == 0) first[cache[b].rank[m] + 1]++;
    for (long long b = 0; b < boards; b++) first[b + 1] += first[b];
    from = malloc(sizeof(int32_t) * ((size_t)first[boards] + 1));
    if (!from) goto out;
    {
        int32_t *fill = malloc(sizeof(int32_t) * (size_t)boards);
        if (!fill) goto out;
        memcpy(fill, first, sizeof(int32_t) * (size_t)boards);
        for (long long b = 0; b < boards; b++)
            for (int m = 0; m < cache[b].count; m++)
                if (cache[b].gain[m] == 0) from[fill[cache[b].rank[m]]++] = (int32_t)b;
        free(fill);
    }
    /* A work list: a position whose bounds moved puts its predecessors back in line. Then a
     * full sweep checks that nothing moves (Ouril's extra moves have no listed predecessors). */
    int width = seeds + 1, low = r->half - seeds, changed = 1;
    sweeps = 0;
    while (changed) {
        long long head = 0, tail = 0;
        for (long long k = 0; k < positions; k++) { queue[tail++] = (int32_t)k; queued[k] = 1; }
        changed = 0;
        sweeps++;
        while (head != tail) {
            long long k = queue[head++ % positions], b = k / width;
            int own = low + (int)(k % width), lo, hi;
            queued[k] = 0;
            cached_bounds(t, all + 12 * b, seeds, own, &cache[b], &lo, &hi);
            long long at = t->offset[seeds] + k;
            if (lo == t->lo[at] && hi == t->hi[at]) continue;
            t->lo[at] = (int8_t)lo;
            t->hi[at] = (int8_t)hi;
            changed = 1;
            int before_own = 2 * r->half - seeds - own;  /* the mover's store one move earlier */
            for (int32_t e = first[b]; e < first[b + 1]; e++) {
                long long j = (long long)from[e] * width + (before_own - low);
                if (!queued[j]) { queued[j] = 1; queue[tail++ % positions] = (int32_t)j; }
            }
        }
        if (r->slam != SLAM_CAPTURE_AND_REPLAY) break;  /* every dependency was listed */
    }
out:
    free(first);
    free(from);
    free(queue);
    free(queued);
    free(cache);
    free(all);
    return sweeps;
}

/* ---------------------------------------------------------------------------------------- */
/* Python bindings                                                                            */

static int parse_rules(Rules *r, int code, int houses, int seeds)
{
    if (make_rules(r, code, houses, seeds)) {
        PyErr_SetString(PyExc_ValueError, "unsupported rules");
        return -1;
    }
    return 0;
}

static int parse_state(const Rules *r, PyObject *tuple, u8 *s)
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != r->width) {
        PyErr_Format(PyExc_ValueError, "a state is a tuple of %d numbers", r->width);
        return -1;
    }
    for (int p = 0; p < r->width; p++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(tuple, p));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v > 255) {
            PyErr_SetString(PyExc_ValueError, "state numbers must be 0..255");
            return -1;
        }
        s[p] = (u8)v;
    }
    return 0;
}

/* Small ints are cached by CPython; building the tuple is the main cost of play() from Python. */
static PyObject *state_tuple(const Rules *r, const u8 *s)
{
    PyObject *t = PyTuple_New(r->width);
    if (!t) return NULL;
    for (int p = 0; p < r->width; p++) PyTuple_SET_ITEM(t, p, PyLong_FromLong(s[p]));
    return t;
}

static PyObject *py_legal(PyObject *self, PyObject *args)
{
    int code, houses, seeds, moves[10];
    PyObject *tuple;
    Rules r;
    u8 s[MAXW];
    if (!PyArg_ParseTuple(args, "iiiO", &code, &houses, &seeds, &tuple)) return NULL;
    if (parse_rules(&r, code, houses, seeds) || parse_state(&r, tuple, s)) return NULL;
    int count = legal(&r, s, moves);
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int m = 0; m < count; m++) PyList_SET_ITEM(list, m, PyLong_FromLong(moves[m]));
    return list;
}

/* play(code, houses, seeds, state, i) -> (state, captures, grand_slam, extra_turn, last) */
static PyObject *py_play(PyObject *self, PyObject *args)
{
    int code, houses, seeds, i;
    PyObject *tuple;
    Rules r;
    u8 s[MAXW], out[MAXW];
    Effect e;
    if (!PyArg_ParseTuple(args, "iiiOi", &code, &houses, &seeds, &tuple, &i)) return NULL;
    if (parse_rules(&r, code, houses, seeds) || parse_state(&r, tuple, s)) return NULL;
    if (i < 0 || i >= r.pits || !s[i]) {
        PyErr_SetString(PyExc_ValueError, "not a house with seeds");
        return NULL;
    }
    play(&r, s, i, out, &e);
    PyObject *captures = PyTuple_New(e.count);
    if (!captures) return NULL;
    for (int c = 0; c < e.count; c++) {
        int house, taken;
        if (r.on_path) {
            int lo = e.kalah_pair[0] < e.kalah_pair[1] ? 0 : 1;
            house = e.kalah_pair[c == 0 ? lo : 1 - lo];
            u8 sown[MAXW];
            sow(&r, s, i, sown);
            taken = house == e.kalah_pair[0] ? 1 : sown[house];
        } else {
            u8 sown[MAXW];
            sow(&r, s, i, sown);
            house = e.first + c;
            taken = sown[house];
        }
        PyTuple_SET_ITEM(captures, c, Py_BuildValue("(ii)", house, taken));
    }
    PyObject *state = state_tuple(&r, out);
    if (!state) { Py_DECREF(captures); return NULL; }
    return Py_BuildValue("(NNOOi)", state, captures, e.slam ? Py_True : Py_False, e.replay ? Py_True : Py_False, e.last);
}

static PyObject *py_perft(PyObject *self, PyObject *args)
{
    int code, houses, seeds, depth;
    PyObject *tuple;
    Rules r;
    u8 s[MAXW];
    if (!PyArg_ParseTuple(args, "iiiOi", &code, &houses, &seeds, &tuple, &depth)) return NULL;
    if (parse_rules(&r, code, houses, seeds) || parse_state(&r, tuple, s)) return NULL;
    if (depth <= 0) return PyLong_FromLong(1);
    Path seen = {0};
    unsigned long long count;
    path_push(&seen, &r, s, hash_of(&r, s));
    Py_BEGIN_ALLOW_THREADS
    count = perft(&r, s, depth, &seen);
    Py_END_ALLOW_THREADS
    free(seen.items);
    return PyLong_FromUnsignedLongLong(count);
}

/* The evaluation's weights: None (the hand-set evaluation) or FEATURES ints in 1/64 of a quarter
 * seed; returns -1 with an exception set when they are neither. */
static int parse_weights(PyObject *weights, int *out)
{
    if (weights == Py_None) return 0;
    PyObject *seq = PySequence_Fast(weights, "weights: a sequence of ints or None");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != FEATURES) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "weights: %d of them", FEATURES);
        return -1;
    }
    for (int k = 0; k < FEATURES; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        if (v < -1000000 || v > 1000000) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "weights: each within +-1,000,000");
            return -1;
        }
        out[k] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

/* evaluate(code, houses, seeds, state, weights) -> the static evaluation the search uses */
static PyObject *py_evaluate(PyObject *self, PyObject *args)
{
    int code, houses, seeds, moves[10], w[FEATURES];
    PyObject *tuple, *weights;
    Rules r;
    u8 s[MAXW];
    if (!PyArg_ParseTuple(args, "iiiOO", &code, &houses, &seeds, &tuple, &weights)) return NULL;
    if (parse_rules(&r, code, houses, seeds) || parse_state(&r, tuple, s) || parse_weights(weights, w)) return NULL;
    return PyLong_FromLong(evaluate(&r, s, legal(&r, s, moves), weights == Py_None ? NULL : w));
}

/* features(code, houses, seeds, state) -> the evaluation's features, for the player to move */
static PyObject *py_features(PyObject *self, PyObject *args)
{
    int code, houses, seeds, moves[10], f[FEATURES];
    PyObject *tuple;
    Rules r;
    u8 s[MAXW];
    if (!PyArg_ParseTuple(args, "iiiO", &code, &houses, &seeds, &tuple)) return NULL;
    if (parse_rules(&r, code, houses, seeds) || parse_state(&r, tuple, s)) return NULL;
    memset(f, 0, sizeof f);
    features(&r, s, legal(&r, s, moves), f);
    int index[2 * TABLE_HOUSES], ones = table_features(&r, s, index);
    for (int k = 0; k < ones; k++) f[index[k]] = 1;
    PyObject *out = PyTuple_New(FEATURES);
    if (!out) return NULL;
    for (int k = 0; k < FEATURES; k++) PyTuple_SET_ITEM(out, k, PyLong_FromLong(f[k]));
    return out;
}

/* One iteration at the root. *best_move changes as soon as a move is shown better than the ones
 * before it, so an iteration cut short by the clock still counts for what it found (the previous
 * best is searched first). Returns the best score. */
static int root_search(Search *z, const u8 *root, int *moves, int count, int depth, PyObject *progress, int *best_move)
{
    const Rules *r = z->r;
    int alpha = -INF;
    u64 hash = hash_of(r, root);
    u8 children[10][MAXW];
    u64 hashes[10];
    order(z, root, moves, count, depth > 1 ? *best_move : -1, children, hashes, NULL);
    for (int m = 0; m < count; m++) {
        int score = child_value(z, root, children[m], hashes[m], depth, alpha, INF, hash);
        if (z->out_of_time) return 0;
        if (progress != Py_None) {
            PyEval_RestoreThread(z->released);
            PyObject *answer = PyObject_CallNoArgs(progress);
            Py_XDECREF(answer);
            z->released = PyEval_SaveThread();
            if (!answer) { z->out_of_time = 2; return 0; }
        }
        if (score > alpha) { alpha = score; *best_move = moves[m]; }
    }
    return alpha;
}

/* The principal variation from the table, starting with `first`. */
static PyObject *principal_variation(Search *z, const u8 *root, int first)
{
    const Rules *r = z->r;
    PyObject *line = PyList_New(0);
    u8 s[MAXW], next[MAXW];
    Path seen = {0};
    int move = first;
    memcpy(s, root, (size_t)r->width);
    while (line && PyList_GET_SIZE(line) < 24) {
        PyObject *house = PyLong_FromLong(move + 1);
        PyList_Append(line, house);
        Py_DECREF(house);
        path_push(&seen, r, s, hash_of(r, s));
        play(r, s, move, next, NULL);
        memcpy(s, next, (size_t)r->width);
        u64 h = hash_of(r, s);
        Entry *e = probe(z, h ^ z->salt);
        int moves[10], count = legal(r, s, moves), found = 0;
        if (majority(r, s) || path_has(&seen, r, s, h) || !e || e->move < 0) break;
        for (int m = 0; m < count; m++) found |= moves[m] == e->move;
        if (!found) break;
        move = e->move;
    }
    free(seen.items);
    if (!line) return NULL;
    PyObject *tuple = PyList_AsTuple(line);
    Py_DECREF(line);
    return tuple;
}

/* search(code, houses, seeds, state, history, seconds, max_nodes, max_depth, progress[, table, N, weights, techniques])
 *   -> (house index, depth, score, pv, nodes, exact)
 * With an endgame table (bytes or a memory map, and its N), positions in it are not searched.
 * weights: the evaluation's (parse_weights), None for the hand-set one. techniques: which of
 * KILLERS, HISTORY, REDUCTIONS, KEEP to use (a bit mask; all by default).
 * Iterative deepening until the time (or node) budget runs out or an iteration is proven: no
 * line of it met the horizon, so its score is the game's exact value, margin included. */
static PyObject *py_search(PyObject *self, PyObject *args)
{
    int code, houses, seeds, max_depth;
    long long max_nodes;
    double seconds;
    int table_seeds = -1, techniques = ALL_TECHNIQUES;
    PyObject *tuple, *history, *progress, *weights = Py_None;
    Py_buffer known = {0};
    Rules r;
    u8 root[MAXW], s[MAXW];
    if (!PyArg_ParseTuple(args, "iiiOOdLiO|z*iOi", &code, &houses, &seeds, &tuple, &history, &seconds, &max_nodes, &max_depth, &progress,
                          &known, &table_seeds, &weights, &techniques))
        return NULL;
    Search z = {0};
    z.techniques = techniques & ALL_TECHNIQUES;
    memset(z.killer, -1, sizeof z.killer);
    if (parse_rules(&r, code, houses, seeds) || parse_state(&r, tuple, root)) { PyBuffer_Release(&known); return NULL; }
    if (parse_weights(weights, z.weight)) { PyBuffer_Release(&known); return NULL; }
    if (weights != Py_None) z.weights = z.weight;
    if (max_depth > MAXDEPTH) max_depth = MAXDEPTH;
    if (known.buf && !r.on_path && table_seeds >= 0 && table_seeds <= MAXSEEDS) {
        layout(&z.tables, &r, table_seeds);
        if (known.len == z.tables.offset[table_seeds + 1]) z.known = known.buf;
    }
    z.r = &r;
    z.max_nodes = max_nodes;
    z.deadline = now() + 0.97 * seconds;  /* 3% left for clearing up and for Python around it */
    int bits = table_bits(seconds, max_nodes);
    z.mask = ((u64)1 << bits) - 1;
    z.salt = salt_of(&r, z.weights, z.known ? table_seeds : -1);
    z.table = take_table(bits, (z.techniques & KEEP) && !max_nodes);
    if (z.table == kept_table) z.age = ++kept_age;  /* a fresh table's entries are all age 0 */
    if (!z.table) { PyBuffer_Release(&known); return PyErr_NoMemory(); }
    /* The game's positions with as many captured seeds as now: only those can come back. */
    PyObject *iterator = PyObject_GetIter(history);
    PyObject *item;
    int captured = root[r.store[0]] + root[r.store[1]];
    while (iterator && (item = PyIter_Next(iterator))) {
        int bad = parse_state(&r, item, s);
        Py_DECREF(item);
        if (bad) break;
        if (s[r.store[0]] + s[r.store[1]] == captured && memcmp(s, root, (size_t)r.width))
            path_push(&z.path, &r, s, hash_of(&r, s));
    }
    Py_XDECREF(iterator);
    z.before_root = z.path.size;
    if (PyErr_Occurred()) { give_back_table(z.table, bits); free(z.path.items); PyBuffer_Release(&known); return NULL; }
    int moves[10], count = legal(&r, root, moves);
    int best_move = count ? moves[0] : -1, best_depth = 0, best_score = 0, exact = 0;
    /* Without the GIL: other threads run meanwhile (a worker's watchdog can end the process). */
    z.released = PyEval_SaveThread();
    for (int depth = 1; count > 1 && depth <= max_depth; depth++) {
        int move = best_move;
        z.horizon = 0;
        z.leans_on = NO_REPETITION;
        int score = root_search(&z, root, moves, count, depth, progress, &move);
        if (z.out_of_time) {
            best_move = move;  /* a move shown better part-way through counts */
            break;
        }
        best_move = move;
        best_depth = depth;
        best_score = score;
        Entry *e = slot_for(&z, hash_of(&r, root) ^ z.salt, depth);
        e->key = hash_of(&r, root) ^ z.salt;
        e->age = z.age;
        e->move = (int8_t)move;
        e->depth = (uint8_t)depth;
        e->score = (int16_t)score;
        e->flag = (uint8_t)(EXACT | (z.horizon ? 0 : 4) | repetition_flag(&z, z.leans_on, z.before_root));
        if (!z.horizon) { exact = 1; break; }  /* proven, margin included: nothing deeper to learn */
    }
    PyEval_RestoreThread(z.released);
    PyObject *pv = count ? principal_variation(&z, root, best_move) : PyTuple_New(0);
    give_back_table(z.table, bits);
    free(z.path.items);
    PyBuffer_Release(&known);
    if (z.out_of_time == 2 || !pv) { Py_XDECREF(pv); return NULL; }
    return Py_BuildValue("(iiiNLO)", best_move, best_depth, best_score, pv, z.nodes, exact ? Py_True : Py_False);
}

/* playout(code, houses, seeds, state, seen, seed, limit) -> (store A, store B) at the end of
 * a game played on at random from state (MCTS's simulation). seen: the positions so far, for
 * the repetition ending. After `limit` moves the stores are returned as they stand. */
static PyObject *py_playout(PyObject *self, PyObject *args)
{
    int code, houses, seeds, limit;
    unsigned long long x;
    PyObject *tuple, *history;
    Rules r;
    u8 s[MAXW], next[MAXW];
    if (!PyArg_ParseTuple(args, "iiiOOKi", &code, &houses, &seeds, &tuple, &history, &x, &limit)) return NULL;
    if (parse_rules(&r, code, houses, seeds) || parse_state(&r, tuple, s)) return NULL;
    Path seen = {0};
    int captured = s[r.store[0]] + s[r.store[1]];
    PyObject *iterator = PyObject_GetIter(history), *item;
    while (iterator && (item = PyIter_Next(iterator))) {
        int bad = parse_state(&r, item, next);
        Py_DECREF(item);
        if (bad) break;
        if (next[r.store[0]] + next[r.store[1]] == captured) path_push(&seen, &r, next, hash_of(&r, next));
    }
    Py_XDECREF(iterator);
    if (PyErr_Occurred()) { free(seen.items); return NULL; }
    x |= 1;
    for (int ply = 0; ply < limit; ply++) {
        int moves[10], count = legal(&r, s, moves);
        if (!count) { settle(&r, s, next); memcpy(s, next, (size_t)r.width); break; }
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        play(&r, s, moves[(x >> 11) % (unsigned)count], next, NULL);
        memcpy(s, next, (size_t)r.width);
        if (majority(&r, s)) break;
        u64 h = hash_of(&r, s);
        if (!r.on_path && path_has(&seen, &r, s, h)) { share_rows(&r, s, next); memcpy(s, next, (size_t)r.width); break; }
        path_push(&seen, &r, s, h);
    }
    free(seen.items);
    return Py_BuildValue("(ii)", s[r.store[0]], s[r.store[1]]);
}

static int table_rules(Rules *r, int code)
{
    if (parse_rules(r, code, 6, 4)) return -1;
    if (r->on_path) {
        PyErr_SetString(PyExc_ValueError, "Kalah has no endgame tables here (its stores are on the path)");
        return -1;
    }
    return 0;
}

/* build_tables(code, N, report) -> bytes: one signed byte a position (see table_code).
 * report(seeds, positions, exact, sweeps, decided) is called after each layer. */
static PyObject *py_build_tables(PyObject *self, PyObject *args)
{
    int code, N;
    PyObject *report;
    Rules r;
    Tables t;
    if (!PyArg_ParseTuple(args, "iiO", &code, &N, &report)) return NULL;
    if (table_rules(&r, code)) return NULL;
    if (N < 0 || N > MAXSEEDS) return PyErr_Format(PyExc_ValueError, "seeds on board: 0..%d", MAXSEEDS);
    layout(&t, &r, N);
    size_t size = (size_t)t.offset[N + 1];
    t.lo = malloc(size);
    t.hi = malloc(size);
    if (!t.lo || !t.hi) { free(t.lo); free(t.hi); return PyErr_NoMemory(); }
    for (int seeds = 0; seeds <= N; seeds++) {
        int sweeps;
        Py_BEGIN_ALLOW_THREADS
        sweeps = solve_layer(&t, seeds);
        Py_END_ALLOW_THREADS
        if (sweeps < 0) { free(t.lo); free(t.hi); return PyErr_NoMemory(); }
        long long exact = 0, decided = 0;  /* decided: the result is known, if not the margin */
        for (long long k = t.offset[seeds]; k < t.offset[seeds + 1]; k++) {
            exact += t.lo[k] == t.hi[k];
            decided += t.lo[k] == t.hi[k] || t.lo[k] > 0 || t.hi[k] < 0;
        }
        if (report != Py_None) {
            PyObject *answer = PyObject_CallFunction(report, "iLLiL", seeds, t.offset[seeds + 1] - t.offset[seeds], exact, sweeps, decided);
            if (!answer) { free(t.lo); free(t.hi); return NULL; }
            Py_DECREF(answer);
        }
    }
    for (size_t k = 0; k < size; k++) t.lo[k] = table_code(t.lo[k], t.hi[k]);
    PyObject *result = PyBytes_FromStringAndSize((const char *)t.lo, (Py_ssize_t)size);
    free(t.lo);
    free(t.hi);
    return result;
}

/* probe(code, N, table, state[, bounds]) -> the exact value for the player to move, or None;
 * with bounds true, (lo, hi): the least and the most the mover can end with (None: no bound). */
static PyObject *py_probe(PyObject *self, PyObject *args)
{
    int code, N;
    Py_buffer table;
    PyObject *tuple;
    Rules r;
    Tables t;
    u8 s[MAXW];
    int bounds = 0;
    if (!PyArg_ParseTuple(args, "iiy*O|p", &code, &N, &table, &tuple, &bounds)) return NULL;
    PyObject *result = NULL;
    if (table_rules(&r, code) || parse_state(&r, tuple, s)) goto done;
    if (N < 0 || N > MAXSEEDS) { PyErr_SetString(PyExc_ValueError, "bad N"); goto done; }
    layout(&t, &r, N);
    if (table.len != t.offset[N + 1]) { PyErr_SetString(PyExc_ValueError, "the table's size does not match its seeds"); goto done; }
    long long k = table_index(&t, s);
    int lo, hi;
    code_bounds(k < 0 ? UNKNOWN : ((const int8_t *)table.buf)[k], &lo, &hi);
    if (bounds) result = Py_BuildValue("(NN)", lo == -BOUND ? Py_NewRef(Py_None) : PyLong_FromLong(lo),
                                       hi == BOUND ? Py_NewRef(Py_None) : PyLong_FromLong(hi));
    else if (lo != hi) result = Py_NewRef(Py_None);
    else result = PyLong_FromLong(lo);
done:
    PyBuffer_Release(&table);
    return result;
}

/* mechanics(code) -> the mechanics make_rules reads in a rules code, named as in rules.py's Mechanics */
static PyObject *py_mechanics(PyObject *self, PyObject *args)
{
    int code;
    Rules r;
    if (!PyArg_ParseTuple(args, "i", &code) || parse_rules(&r, code, 6, 4)) return NULL;
    return Py_BuildValue("{s:s,s:O,s:O,s:O}", "grand_slam", SLAM_NAMES[r.slam],
                         "single_seed_rule", r.single_seed ? Py_True : Py_False,
                         "stranded_seeds_to_opponent", r.stranded_to_opponent ? Py_True : Py_False,
                         "stores_on_path", r.on_path ? Py_True : Py_False);
}

static PyMethodDef methods[] = {
    {"mechanics", py_mechanics, METH_VARARGS, "mechanics(code) -> the mechanics the other functions read in a rules code"},
    {"legal", py_legal, METH_VARARGS, "legal(code, houses, seeds, state) -> house indices the player to move may empty"},
    {"play", py_play, METH_VARARGS, "play(code, houses, seeds, state, i) -> (state, captures, grand_slam, extra_turn, last)"},
    {"perft", py_perft, METH_VARARGS, "perft(code, houses, seeds, state, depth) -> move sequences of length depth"},
    {"search", py_search, METH_VARARGS,
     "search(code, houses, seeds, state, history, seconds, max_nodes, max_depth, progress[, table, N, weights]) -> (move, depth, score, pv, nodes, exact)"},
    {"evaluate", py_evaluate, METH_VARARGS, "evaluate(code, houses, seeds, state, weights) -> the search's static evaluation (weights None: hand-set)"},
    {"features", py_features, METH_VARARGS, "features(code, houses, seeds, state) -> the evaluation's features for the player to move"},
    {"playout", py_playout, METH_VARARGS, "playout(code, houses, seeds, state, seen, seed, limit) -> the stores at the end of a random game"},
    {"build_tables", py_build_tables, METH_VARARGS, "build_tables(code, N, report) -> bytes: the endgame table of positions with at most N seeds on board"},
    {"probe", py_probe, METH_VARARGS, "probe(code, N, table, state[, bounds]) -> the exact value (final margin) for the player to move, or None; with bounds, (lo, hi)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "The compiled rules and search (see bot/engine/_core.c).", -1, methods};

/* Raised whenever a function's signature changes: bot/engine/core.py ignores a stale build. */
#define INTERFACE 4  /* 2: search takes the techniques; 3: BUCKETS among them; 4: rules codes, mechanics() */

PyMODINIT_FUNC PyInit__core(void)
{
    init_zobrist();
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "INTERFACE", INTERFACE)) { Py_DECREF(m); return NULL; }
    return m;
}
