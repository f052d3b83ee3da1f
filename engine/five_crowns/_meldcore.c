/* The compiled core of the Five Crowns meld solver: the same answers as the pure-Python
 * reference (meld_search._search, melds.min_penalty, swaps.SwapSolver), many times faster.
 *
 * - A hand's naturals are five words, one per suit (H D C S T), 3 bits per rank 3..K:
 *   the Python solver's integer split by suit, so suits sort as plain numbers.
 * - search() is meld_search's search of one component: the lowest card left over or the
 *   lowest of a meld, memoised on the multiset with its suits sorted, the best melded
 *   value for every wild budget at once.
 * - Solver is swaps.SwapSolver's interface. Every hand it prices is solved whole (its
 *   components, each looked up in the memo): in C that is cheaper than the Python
 *   solver's bookkeeping of which groups a card touches.
 *
 * The rules behind the search are in melds.py's docstring; this file follows
 * meld_search.py step by step (the same moves, prunings and memo), so that the property
 * tests (tests/engine/five_crowns/test_fc_compiled.py) compare like with like.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SUITS 5
#define RANKS 11
#define LOWEST_RANK 3
#define BITS 3
#define FIELD 7u
#define SLOTS (SUITS * RANKS)
#define JOKER_CODE SLOTS /* a card's code: its slot, or this for the joker */
/* Where a stock card's value is kept: its code, the wild rank's, or its rank's (a
 * natural whose suit does not matter). */
#define WILD_RANK_VALUE (JOKER_CODE + 1)
#define RANK_VALUES (WILD_RANK_VALUE + 1)
#define VALUES (RANK_VALUES + RANKS)
#define RUN_REACH 4      /* a run's naturals span at most 5 ranks */
#define BOOK_OTHERS 4    /* a book holds at most 5 naturals */
#define MIN_MELD 3
#define WILD_PENALTY 20
#define JOKER_PENALTY 50
#define SMALL 64 /* budgets and hands up to this size use stack buffers */
#define MAX_OPTIONS 192
#define UNBOUNDED INT32_MAX
#define FAILED INT32_MIN /* an answer's error (a Python exception is set) */

static const char SUIT_LETTERS[SUITS] = {'H', 'D', 'C', 'S', 'T'};
/* Bit 0 of every field of a suit word: one bit per occupied rank after folding. */
static const uint64_t LOW_BITS = 01111111111111ull & ((1ull << (BITS * RANKS)) - 1);

typedef struct {
    uint64_t s[SUITS];
} Nat;

static inline unsigned field(const Nat *n, int suit, int rank_index) {
    return (unsigned)(n->s[suit] >> (BITS * rank_index)) & FIELD;
}

static inline uint64_t unit(int rank_index) { return 1ull << (BITS * rank_index); }

/* ------------------------------------------------------------------ the memo */

/* An open-addressing table of (canonical multiset, cap) -> best value per budget. The
 * vectors live in chunks that never move, so a pointer into them stays good until the
 * memo is cleared, which happens only between top-level solves (never mid-search). */
typedef struct {
    uint64_t key[SUITS];
    int32_t cap; /* -1: empty */
    int32_t *values;
} Entry;

#define MEMO_LIMIT (1 << 17) /* entries before a clear, as meld_search._MEMO_LIMIT */
#define CHUNK_INTS (1 << 16)

typedef struct Chunk {
    struct Chunk *next;
    size_t used;
    int32_t values[CHUNK_INTS];
} Chunk;

static Entry *table = NULL;
static size_t table_size = 0; /* a power of two */
static size_t table_count = 0;
static Chunk *chunks = NULL;
static int depth = 0; /* searches in progress: the memo is cleared only at depth 0 */

static inline size_t hash_key(const uint64_t *key, int cap) {
    uint64_t h = 0x9E3779B97F4A7C15ull * (uint64_t)(cap + 1);
    for (int i = 0; i < SUITS; i++) {
        h ^= key[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ull;
    }
    h ^= h >> 31;
    return (size_t)h;
}

static void memo_clear(void) {
    if (table != NULL) {
        for (size_t i = 0; i < table_size; i++) table[i].cap = -1;
    }
    table_count = 0;
    while (chunks != NULL && chunks->next != NULL) { /* keep one chunk for reuse */
        Chunk *next = chunks->next;
        PyMem_RawFree(chunks);
        chunks = next;
    }
    if (chunks != NULL) chunks->used = 0;
}

static int memo_grow(void) {
    size_t size = table_size ? table_size * 2 : (1 << 12);
    Entry *grown = PyMem_RawMalloc(size * sizeof(Entry));
    if (grown == NULL) return -1;
    for (size_t i = 0; i < size; i++) grown[i].cap = -1;
    for (size_t i = 0; i < table_size; i++) {
        if (table[i].cap < 0) continue;
        size_t at = hash_key(table[i].key, table[i].cap) & (size - 1);
        while (grown[at].cap >= 0) at = (at + 1) & (size - 1);
        grown[at] = table[i];
    }
    PyMem_RawFree(table);
    table = grown;
    table_size = size;
    return 0;
}

static const int32_t *memo_get(const Nat *key, int cap) {
    if (table_count == 0) return NULL;
    size_t at = hash_key(key->s, cap) & (table_size - 1);
    for (;;) {
        Entry *entry = &table[at];
        if (entry->cap < 0) return NULL;
        if (entry->cap == cap && memcmp(entry->key, key->s, sizeof(entry->key)) == 0) {
            return entry->values;
        }
        at = (at + 1) & (table_size - 1);
    }
}

static int32_t *arena_take(size_t count) {
    if (count > CHUNK_INTS) return NULL; /* a budget far beyond any hand: not memoised */
    if (chunks == NULL || chunks->used + count > CHUNK_INTS) {
        Chunk *chunk = PyMem_RawMalloc(sizeof(Chunk));
        if (chunk == NULL) return NULL;
        chunk->next = chunks;
        chunk->used = 0;
        chunks = chunk;
    }
    int32_t *found = chunks->values + chunks->used;
    chunks->used += count;
    return found;
}

/* Remember a vector; a failure only costs a later solve again. */
static void memo_put(const Nat *key, int cap, const int32_t *values) {
    if ((table_count + 1) * 2 > table_size && memo_grow() < 0) return;
    int32_t *stored = arena_take((size_t)cap + 1);
    if (stored == NULL) return;
    memcpy(stored, values, ((size_t)cap + 1) * sizeof(int32_t));
    size_t at = hash_key(key->s, cap) & (table_size - 1);
    while (table[at].cap >= 0) at = (at + 1) & (table_size - 1);
    memcpy(table[at].key, key->s, sizeof(table[at].key));
    table[at].cap = cap;
    table[at].values = stored;
    table_count++;
}

/* ------------------------------------------------------------------ the search */

static void sort_suits(Nat *n) { /* suits are symmetric: one memo entry per renaming */
    uint64_t *s = n->s;
    for (int i = 1; i < SUITS; i++) {
        uint64_t v = s[i];
        int j = i - 1;
        while (j >= 0 && s[j] > v) {
            s[j + 1] = s[j];
            j--;
        }
        s[j + 1] = v;
    }
}

typedef struct {
    Nat rest;
    int need;    /* wilds the meld needs */
    int gained;  /* value melded */
    int removed; /* value taken out of the hand */
    int left;    /* naturals left */
} Option;

static inline int option_before(const Option *a, const Option *b) {
    /* The cheapest first, the richest first among equals (as meld_search sorts). */
    return a->need < b->need || (a->need == b->need && a->gained > b->gained);
}

static inline void add_option(Option *options, int *count, const Nat *rest, int need,
                              int gained, int removed, int left) {
    Option *option = &options[(*count)++];
    option->rest = *rest;
    option->need = need;
    option->gained = gained;
    option->removed = removed;
    option->left = left;
}

/* meld_search._options: what can happen to the lowest card of ``hand``; the leftover
 * card last. Returns the number of options. */
static int options_of(const Nat *hand, int count, int cap, Option *options) {
    uint64_t folded = 0;
    for (int suit = 0; suit < SUITS; suit++) folded |= hand->s[suit];
    uint64_t spread = (folded | folded >> 1 | folded >> 2) & LOW_BITS;
    int rank_index = __builtin_ctzll(spread) / BITS;
    int suit = 0;
    while (!field(hand, suit, rank_index)) suit++;
    Nat rest = *hand;
    rest.s[suit] -= unit(rank_index);
    int value = rank_index + LOWEST_RANK;
    int left = count - 1;
    int n = 0;
    if (cap >= 2) add_option(options, &n, &rest, 2, value, value, left);
    /* Runs: which of the next four ranks of its suit join it. */
    int reach = RANKS - 1 - rank_index < RUN_REACH ? RANKS - 1 - rank_index : RUN_REACH;
    unsigned present = 0;
    for (int step = 1; step <= reach; step++) {
        if (field(&rest, suit, rank_index + step)) present |= 1u << (step - 1);
    }
    for (unsigned chosen = 1; chosen < (1u << reach); chosen++) {
        if (chosen & ~present) continue;
        int others = __builtin_popcount(chosen);
        int top = 32 - __builtin_clz(chosen); /* the highest step taken */
        int span = top + 1 > MIN_MELD ? top + 1 : MIN_MELD;
        int need = span - others - 1;
        if (need > cap) continue;
        Nat run = rest;
        int gained = value;
        for (int step = 1; step <= reach; step++) {
            if (chosen >> (step - 1) & 1) {
                run.s[suit] -= unit(rank_index + step);
                gained += rank_index + step + LOWEST_RANK;
            }
        }
        add_option(options, &n, &run, need, gained, gained, left - others);
    }
    /* Books: how many of each same-rank slot (this one's twins, the later suits); those
     * no run can use are interchangeable, so only how many of them is chosen. */
    int book_reach = cap + 1 < RUN_REACH ? cap + 1 : RUN_REACH;
    int mask_suits[MAX_OPTIONS][SUITS]; /* cards taken per suit, per combination */
    int sizes[MAX_OPTIONS];
    int combos = 1;
    memset(mask_suits[0], 0, sizeof(mask_suits[0]));
    sizes[0] = 0;
    int only_suits[BOOK_OTHERS * 2 * SUITS]; /* book-only cards, one entry per copy */
    int only = 0;
    for (int other = suit; other < SUITS; other++) {
        int available = (int)field(&rest, other, rank_index);
        if (!available) continue;
        int low = rank_index - book_reach < 0 ? 0 : rank_index - book_reach;
        int high = rank_index + book_reach > RANKS - 1 ? RANKS - 1 : rank_index + book_reach;
        int near = 0;
        for (int r = low; r <= high && !near; r++) {
            if (r != rank_index && field(&rest, other, r)) near = 1;
        }
        if (!near) {
            for (int copy = 0; copy < available && only < (int)(sizeof(only_suits) / sizeof(int));
                 copy++) {
                only_suits[only++] = other;
            }
            continue;
        }
        int total = combos;
        for (int c = 0; c < combos; c++) {
            int room = BOOK_OTHERS - sizes[c];
            int most = available < room ? available : room;
            for (int taken = 1; taken <= most && total < MAX_OPTIONS; taken++) {
                memcpy(mask_suits[total], mask_suits[c], sizeof(mask_suits[c]));
                mask_suits[total][other] += taken;
                sizes[total] = sizes[c] + taken;
                total++;
            }
        }
        combos = total;
    }
    if (only) {
        int total = combos;
        for (int c = 0; c < combos; c++) {
            int room = BOOK_OTHERS - sizes[c];
            int most = only < room ? only : room;
            for (int taken = 1; taken <= most && total < MAX_OPTIONS; taken++) {
                memcpy(mask_suits[total], mask_suits[c], sizeof(mask_suits[c]));
                for (int i = 0; i < taken; i++) mask_suits[total][only_suits[i]] += 1;
                sizes[total] = sizes[c] + taken;
                total++;
            }
        }
        combos = total;
    }
    for (int c = 1; c < combos && n < MAX_OPTIONS - 1; c++) {
        int size = sizes[c];
        int need = size >= MIN_MELD - 1 ? 0 : MIN_MELD - 1 - size;
        if (need > cap) continue;
        Nat book = rest;
        for (int other = 0; other < SUITS; other++) {
            book.s[other] -= (uint64_t)mask_suits[c][other] * unit(rank_index);
        }
        int gained = value * (size + 1);
        add_option(options, &n, &book, need, gained, gained, left - size);
    }
    /* Cheap, rich melds first: a budget that melds everything then stops early. */
    for (int i = 1; i < n; i++) {
        Option moving = options[i];
        int j = i - 1;
        while (j >= 0 && option_before(&moving, &options[j])) {
            options[j + 1] = options[j];
            j--;
        }
        options[j + 1] = moving;
    }
    add_option(options, &n, &rest, 0, 0, value, left); /* last: it never melds everything */
    return n;
}

static int search(const Nat *given, int count, int total, int cap, int32_t *out);

/* The best melded value of ``hand`` (``count`` naturals worth ``total``) for budgets
 * 0..cap, memoised. ``out`` gets cap + 1 values. -1 on a memory error. */
static int search(const Nat *given, int count, int total, int cap, int32_t *out) {
    Nat hand = *given;
    sort_suits(&hand);
    const int32_t *found = memo_get(&hand, cap);
    if (found != NULL) {
        memcpy(out, found, ((size_t)cap + 1) * sizeof(int32_t));
        return 0;
    }
    Option *options = PyMem_RawMalloc(MAX_OPTIONS * sizeof(Option));
    int32_t small_best[SMALL + 1], small_sub[SMALL + 1];
    int32_t *best = cap <= SMALL ? small_best : PyMem_RawMalloc(((size_t)cap + 1) * 4);
    int32_t *sub = cap <= SMALL ? small_sub : PyMem_RawMalloc(((size_t)cap + 1) * 4);
    int status = -1;
    if (options == NULL || best == NULL || sub == NULL) goto done;
    depth++;
    int n = options_of(&hand, count, cap, options);
    for (int b = 0; b <= cap; b++) best[b] = 0;
    int unmet = cap + 1; /* budgets from here on already meld the whole hand */
    for (int i = 0; i < n && unmet; i++) {
        const Option *option = &options[i];
        if (option->need >= unmet) continue;
        if (option->left) {
            int sub_cap = 2 * option->left < cap ? 2 * option->left : cap;
            if (search(&option->rest, option->left, total - option->removed, sub_cap, sub) < 0) {
                depth--;
                goto done;
            }
            for (int b = option->need; b < unmet; b++) {
                int spare = b - option->need;
                int32_t melded = option->gained + sub[spare < sub_cap ? spare : sub_cap];
                if (melded > best[b]) best[b] = melded;
            }
        } else {
            for (int b = option->need; b < unmet; b++) {
                if (option->gained > best[b]) best[b] = option->gained;
            }
        }
        while (unmet && best[unmet - 1] == total) unmet--;
    }
    for (int b = unmet; b <= cap; b++) best[b] = total;
    depth--;
    memo_put(&hand, cap, best);
    memcpy(out, best, ((size_t)cap + 1) * sizeof(int32_t));
    status = 0;
done:
    PyMem_RawFree(options);
    if (best != small_best) PyMem_RawFree(best);
    if (sub != small_sub) PyMem_RawFree(sub);
    if (status < 0) PyErr_NoMemory();
    return status;
}

/* A top-level solve: the bounded memo is cleared here only, never mid-search. */
static int solve(const Nat *hand, int count, int total, int cap, int32_t *out) {
    if (depth == 0 && table_count >= MEMO_LIMIT) memo_clear();
    return search(hand, count, total, cap, out);
}

/* ------------------------------------------------------------------ whole hands */

static void totals_of(const Nat *n, int *count, int *total) {
    *count = 0;
    *total = 0;
    for (int suit = 0; suit < SUITS; suit++) {
        uint64_t word = n->s[suit];
        for (int r = 0; word; r++, word >>= BITS) {
            int copies = (int)(word & FIELD);
            *count += copies;
            *total += copies * (r + LOWEST_RANK);
        }
    }
}

/* melds._components and _most_melded: split the naturals into groups no meld crosses,
 * solve each, and share the wilds between them (a knapsack). -2: memory error. */
static int root_of(int *parent, int slot) {
    while (parent[slot] != slot) slot = parent[slot] = parent[parent[slot]];
    return slot;
}

static void join(int *parent, int a, int b) {
    a = root_of(parent, a);
    b = root_of(parent, b);
    if (a != b) parent[a > b ? a : b] = a < b ? a : b;
}

static int most_melded(const Nat *n, int wilds) {
    int reach = wilds + 1 < RUN_REACH ? wilds + 1 : RUN_REACH;
    int parent[SLOTS];
    int occupied[SLOTS];
    int slots = 0;
    int first_of_rank[RANKS];
    for (int r = 0; r < RANKS; r++) first_of_rank[r] = -1;
    for (int suit = 0; suit < SUITS; suit++) {
        int previous = -RANKS;
        for (int r = 0; r < RANKS; r++) {
            if (!field(n, suit, r)) continue;
            int slot = suit * RANKS + r;
            parent[slot] = slot;
            occupied[slots++] = slot;
            if (r - previous <= reach) join(parent, slot, suit * RANKS + previous);
            if (first_of_rank[r] < 0) {
                first_of_rank[r] = slot;
            } else {
                join(parent, slot, first_of_rank[r]);
            }
            previous = r;
        }
    }
    if (!slots) return 0;
    Nat groups[SLOTS];
    int group_of_root[SLOTS];
    int group_count = 0;
    for (int i = 0; i < slots; i++) group_of_root[occupied[i]] = -1;
    for (int i = 0; i < slots; i++) {
        int slot = occupied[i];
        int root = root_of(parent, slot);
        if (group_of_root[root] < 0) {
            group_of_root[root] = group_count;
            memset(&groups[group_count], 0, sizeof(Nat));
            group_count++;
        }
        int suit = slot / RANKS, r = slot % RANKS;
        groups[group_of_root[root]].s[suit] |= (uint64_t)field(n, suit, r) << (BITS * r);
    }
    int32_t small_best[SMALL + 1], small_row[SMALL + 1], small_vector[SMALL + 1];
    int big = wilds > SMALL;
    int32_t *best = big ? PyMem_RawMalloc(((size_t)wilds + 1) * 4) : small_best;
    int32_t *row = big ? PyMem_RawMalloc(((size_t)wilds + 1) * 4) : small_row;
    int32_t *vector = big ? PyMem_RawMalloc(((size_t)wilds + 1) * 4) : small_vector;
    int result = -2;
    if (best == NULL || row == NULL || vector == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int flat = 0, have = 0;
    for (int g = 0; g < group_count; g++) {
        int count, total;
        totals_of(&groups[g], &count, &total);
        int cap = 2 * count < wilds ? 2 * count : wilds;
        if (solve(&groups[g], count, total, cap, vector) < 0) goto done;
        int top = vector[0];
        for (int k = 1; k <= cap; k++) top = vector[k] > top ? vector[k] : top;
        if (top == vector[0]) { /* wilds do not help it: its value just adds */
            flat += vector[0];
            continue;
        }
        if (!have) {
            int most = 0;
            for (int b = 0; b <= wilds; b++) {
                if (b <= cap && vector[b] > most) most = vector[b];
                best[b] = most;
            }
            have = 1;
            continue;
        }
        for (int b = 0; b <= wilds; b++) {
            int32_t most = best[b] + vector[0];
            int limit = b < cap ? b : cap;
            for (int more = 1; more <= limit; more++) {
                int32_t value = best[b - more] + vector[more];
                if (value > most) most = value;
            }
            row[b] = most;
        }
        memcpy(best, row, ((size_t)wilds + 1) * sizeof(int32_t));
    }
    result = flat + (have ? best[wilds] : 0);
done:
    if (big) {
        PyMem_RawFree(best);
        PyMem_RawFree(row);
        PyMem_RawFree(vector);
    }
    return result;
}

/* melds.min_penalty of naturals ``n`` and ``wilds`` wilds worth ``wild_penalty``. -1:
 * memory error. */
static int penalty_of(const Nat *n, int wilds, int wild_penalty) {
    int count, total;
    totals_of(n, &count, &total);
    if (wilds >= 2 * count && (count || wilds >= MIN_MELD)) return 0; /* two wilds each */
    int melded = most_melded(n, wilds);
    if (melded < 0) return -1;
    int penalty = total - melded;
    if (!melded && wilds < MIN_MELD) penalty += wild_penalty; /* no meld: wilds count */
    return penalty;
}

/* ------------------------------------------------------------------ cards */

typedef struct {
    int code;    /* slot 0..54, JOKER_CODE for the joker */
    int wild;    /* a joker or the round's wild rank */
    int penalty; /* what it costs left in hand */
    int rank;
} CardInfo;

static int read_card(PyObject *card, int wild_rank, CardInfo *info) {
    if (!PyTuple_Check(card) || PyTuple_GET_SIZE(card) != 2) {
        PyErr_Format(PyExc_TypeError, "not a card: %R", card);
        return -1;
    }
    long rank = PyLong_AsLong(PyTuple_GET_ITEM(card, 0));
    if (rank == -1 && PyErr_Occurred()) return -1;
    PyObject *suit = PyTuple_GET_ITEM(card, 1);
    if (!PyUnicode_Check(suit) || PyUnicode_GET_LENGTH(suit) != 1) {
        PyErr_Format(PyExc_ValueError, "not a Five Crowns card: %R", card);
        return -1;
    }
    Py_UCS4 letter = PyUnicode_READ_CHAR(suit, 0);
    if (rank == 0 && letter == 'J') {
        info->code = JOKER_CODE;
        info->wild = 1;
        info->penalty = JOKER_PENALTY;
        info->rank = 0;
        return 0;
    }
    int suit_index = -1;
    for (int i = 0; i < SUITS; i++) {
        if ((Py_UCS4)SUIT_LETTERS[i] == letter) suit_index = i;
    }
    if (suit_index < 0 || rank < LOWEST_RANK || rank >= LOWEST_RANK + RANKS) {
        PyErr_Format(PyExc_ValueError, "not a Five Crowns card: %R", card);
        return -1;
    }
    info->code = suit_index * RANKS + (int)rank - LOWEST_RANK;
    info->wild = rank == wild_rank;
    info->penalty = info->wild ? WILD_PENALTY : (int)rank;
    info->rank = (int)rank;
    return 0;
}

/* deck.hand_order: by suit (H D C S T), then rank; jokers last. */
static inline int hand_order(const CardInfo *info) {
    return info->code == JOKER_CODE ? SUITS * 16 : (info->code / RANKS) * 16 + info->rank;
}

/* A hand as counts: naturals, wilds and what the wilds cost. */
typedef struct {
    Nat naturals;
    int wilds;
    int wild_penalty;
    int cost; /* every card left over */
} Counts;

static inline void count_in(Counts *counts, const CardInfo *info, int sign) {
    if (info->wild) {
        counts->wilds += sign;
        counts->wild_penalty += sign * info->penalty;
    } else {
        int suit = info->code / RANKS, r = info->code % RANKS;
        if (sign > 0) {
            counts->naturals.s[suit] += unit(r);
        } else {
            counts->naturals.s[suit] -= unit(r);
        }
    }
    counts->cost += sign * info->penalty;
}

static inline int counts_penalty(const Counts *counts) {
    return penalty_of(&counts->naturals, counts->wilds, counts->wild_penalty);
}

/* swaps._floor: a lower bound on the penalty of a hand (penalty ``whole``, every card
 * costing ``cost``) less ``info``'s card. */
static inline int floor_less(const CardInfo *info, int whole, int cost) {
    if (!info->wild) return whole - info->penalty;
    int putting_back = whole - info->penalty;
    int everything = cost - info->penalty;
    int rest = everything < whole ? everything : whole;
    return putting_back > rest ? putting_back : rest;
}

/* ------------------------------------------------------------------ the Solver type */

typedef struct {
    PyObject_HEAD
    PyObject *hand; /* a list of the cards as given */
    int wild_rank;
    Counts counts;
    int keep;
    Py_ssize_t distinct; /* distinct cards, in hand order (dict.fromkeys(hand)) */
    CardInfo *infos;
    PyObject **cards; /* borrowed from ``hand`` */
    int *less;        /* penalty_less per distinct card, -1: not solved yet */
    int *tried;       /* distinct indexes in try order: naturals, the costliest first */
    int apart_known;
    int apart; /* after_swap_apart, -1: None */
    int swap;  /* after_discard(), -1: not solved yet */
    int values[VALUES]; /* after_swap of a drawn card, -1: not solved yet */
    PyObject *near;
    PyObject *suit_near;
} Solver;

static int find_distinct(const Solver *self, int code) {
    for (Py_ssize_t i = 0; i < self->distinct; i++) {
        if (self->infos[i].code == code) return (int)i;
    }
    return -1;
}

/* Back to a solver of no cards (before a hand is read, and if reading it fails). */
static void forget_hand(Solver *self) {
    Py_CLEAR(self->hand);
    Py_CLEAR(self->near);
    Py_CLEAR(self->suit_near);
    memset(&self->counts, 0, sizeof(Counts));
    self->distinct = 0;
    self->keep = 0;
    self->apart_known = 0;
    self->swap = -1;
    for (int code = 0; code < VALUES; code++) self->values[code] = -1;
}

static int read_hand(Solver *self, PyObject *hand) {
    Py_ssize_t size = PyList_GET_SIZE(hand);
    PyMem_Free(self->infos);
    PyMem_Free(self->cards);
    PyMem_Free(self->less);
    PyMem_Free(self->tried);
    size_t room = size ? (size_t)size : 1;
    self->infos = PyMem_Malloc(room * sizeof(CardInfo));
    self->cards = PyMem_Malloc(room * sizeof(PyObject *));
    self->less = PyMem_Malloc(room * sizeof(int));
    self->tried = PyMem_Malloc(room * sizeof(int));
    if (!self->infos || !self->cards || !self->less || !self->tried) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        CardInfo info;
        PyObject *card = PyList_GET_ITEM(hand, i);
        if (read_card(card, self->wild_rank, &info) < 0) return -1;
        count_in(&self->counts, &info, 1);
        if (find_distinct(self, info.code) < 0) {
            self->infos[self->distinct] = info;
            self->cards[self->distinct] = card;
            self->less[self->distinct] = -1;
            self->distinct++;
        }
    }
    /* swaps._try_order, stable: a low answer found early prunes the rest. */
    for (Py_ssize_t i = 0; i < self->distinct; i++) {
        int moving = (int)i;
        Py_ssize_t j = i - 1;
        while (j >= 0) {
            const CardInfo *a = &self->infos[moving], *b = &self->infos[self->tried[j]];
            int before = a->wild < b->wild || (a->wild == b->wild && a->penalty > b->penalty);
            if (!before) break;
            self->tried[j + 1] = self->tried[j];
            j--;
        }
        self->tried[j + 1] = moving;
    }
    self->keep = counts_penalty(&self->counts);
    return self->keep < 0 ? -1 : 0;
}

static int Solver_init(Solver *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"hand", "wild_rank", NULL};
    PyObject *given;
    int wild_rank;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Oi", keywords, &given, &wild_rank)) {
        return -1;
    }
    PyObject *hand = PySequence_List(given);
    if (hand == NULL) return -1;
    forget_hand(self);
    self->hand = hand; /* the cards' references: ``cards`` borrows from it */
    self->wild_rank = wild_rank;
    if (read_hand(self, hand) < 0) {
        forget_hand(self);
        return -1;
    }
    return 0;
}

static void Solver_dealloc(Solver *self) {
    Py_XDECREF(self->hand);
    Py_XDECREF(self->near);
    Py_XDECREF(self->suit_near);
    PyMem_Free(self->infos);
    PyMem_Free(self->cards);
    PyMem_Free(self->less);
    PyMem_Free(self->tried);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The distinct card of ``info``'s code in the hand, or a ValueError. */
static int held(const Solver *self, const CardInfo *info) {
    int index = find_distinct(self, info->code);
    if (index < 0) PyErr_SetString(PyExc_ValueError, "the card is not in the hand");
    return index;
}

static int penalty_less_index(Solver *self, int index) {
    if (self->less[index] < 0) {
        Counts counts = self->counts;
        count_in(&counts, &self->infos[index], -1);
        self->less[index] = counts_penalty(&counts);
    }
    return self->less[index];
}

/* An optional card argument: 1 read, 0 None, -1 error. */
static int optional_card(const Solver *self, PyObject *card, CardInfo *info) {
    if (card == NULL || card == Py_None) return 0;
    return read_card(card, self->wild_rank, info) < 0 ? -1 : 1;
}

static int optional_bound(PyObject *bound, int *value) {
    if (bound == NULL || bound == Py_None) {
        *value = UNBOUNDED;
        return 0;
    }
    long read = PyLong_AsLong(bound);
    if (read == -1 && PyErr_Occurred()) return -1;
    *value = read > UNBOUNDED ? UNBOUNDED : (read <= FAILED ? FAILED + 1 : (int)read);
    return 0;
}

static PyObject *answer(int best) {
    if (best == UNBOUNDED) {
        PyErr_SetString(PyExc_ValueError, "no card to discard");
        return NULL;
    }
    return PyLong_FromLong(best);
}

static PyObject *Solver_penalty_less(Solver *self, PyObject *card) {
    CardInfo info;
    if (read_card(card, self->wild_rank, &info) < 0) return NULL;
    int index = held(self, &info);
    if (index < 0) return NULL;
    int penalty = penalty_less_index(self, index);
    return penalty < 0 ? NULL : PyLong_FromLong(penalty);
}

/* after_discard's answer: the lowest penalty of hand less one card other than
 * ``banned`` (NULL: none), at most ``best``. UNBOUNDED: no card; FAILED: error. */
static int discard_answer(Solver *self, const CardInfo *banned, int best) {
    int choices = 0;
    for (Py_ssize_t t = 0; t < self->distinct; t++) {
        int index = self->tried[t];
        const CardInfo *info = &self->infos[index];
        if (banned != NULL && info->code == banned->code) continue;
        choices++;
        if (best != UNBOUNDED && floor_less(info, self->keep, self->counts.cost) >= best) {
            continue; /* it cannot beat the best found */
        }
        int penalty = penalty_less_index(self, index);
        if (penalty < 0) return FAILED;
        if (penalty < best) {
            best = penalty;
            if (!best) break;
        }
    }
    if (!choices && self->distinct) { /* every card is the banned one: it must go */
        int penalty = penalty_less_index(self, 0);
        if (penalty < 0) return FAILED;
        if (penalty < best) best = penalty;
    }
    return best;
}

/* after_swap's answer for drawn ``card``: the lowest penalty of hand + card less one
 * card other than ``banned`` (NULL: none), at most ``best``. FAILED: error. */
static int swap_answer(Solver *self, const CardInfo *card, const CardInfo *banned, int best) {
    Counts drawn = self->counts;
    count_in(&drawn, card, 1);
    int whole = -1; /* the penalty of hand + card, for the floors: solved when needed */
    int choices = 0;
    /* The drawn card first (throwing it back leaves the hand), then the hand's cards. */
    for (Py_ssize_t t = -1; t < self->distinct; t++) {
        const CardInfo *info = t < 0 ? card : &self->infos[self->tried[t]];
        if (banned != NULL && info->code == banned->code) continue;
        if (t >= 0 && info->code == card->code) continue;
        choices++;
        if (best != UNBOUNDED) {
            if (whole < 0 && (whole = counts_penalty(&drawn)) < 0) return FAILED;
            if (floor_less(info, whole, drawn.cost) >= best) continue;
        }
        int penalty;
        if (t < 0) {
            penalty = self->keep;
        } else {
            Counts less = drawn;
            count_in(&less, info, -1);
            if ((penalty = counts_penalty(&less)) < 0) return FAILED;
        }
        if (penalty < best) {
            best = penalty;
            if (!best) break;
        }
    }
    if (!choices && self->keep < best) best = self->keep; /* only the banned card: thrown */
    return best;
}

/* after_swap_apart's answer into ``out`` (-1: None). -1: error. */
static int apart_answer(Solver *self, int *out) {
    if (!self->apart_known) {
        int best = -1;
        if (self->counts.wilds >= 2) {
            int wilds = self->counts.wilds - 2; /* two wilds sit with the drawn card */
            int count, natural_total;
            totals_of(&self->counts.naturals, &count, &natural_total);
            for (Py_ssize_t i = 0; i < self->distinct; i++) {
                const CardInfo *info = &self->infos[i];
                int left, melded;
                if (info->wild) {
                    if (!wilds) continue; /* only the two wilds of the drawn card's meld */
                    melded = most_melded(&self->counts.naturals, wilds - 1);
                    left = natural_total - melded;
                } else {
                    Nat less = self->counts.naturals;
                    less.s[info->code / RANKS] -= unit(info->code % RANKS);
                    melded = most_melded(&less, wilds);
                    left = natural_total - info->rank - melded;
                }
                if (melded < 0) return -1;
                if (best < 0 || left < best) best = left;
            }
        }
        self->apart = best;
        self->apart_known = 1;
    }
    *out = self->apart;
    return 0;
}

static PyObject *Solver_after_discard(Solver *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"banned", "bound", NULL};
    PyObject *banned_card = NULL, *bound_value = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO", keywords, &banned_card,
                                     &bound_value)) {
        return NULL;
    }
    CardInfo banned;
    int has_banned = optional_card(self, banned_card, &banned);
    int bound;
    if (has_banned < 0 || optional_bound(bound_value, &bound) < 0) return NULL;
    int best = discard_answer(self, has_banned ? &banned : NULL, bound);
    return best == FAILED ? NULL : answer(best);
}

static PyObject *Solver_after_swap(Solver *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"card", "banned", "bound", NULL};
    PyObject *card, *banned_card = NULL, *bound_value = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO", keywords, &card, &banned_card,
                                     &bound_value)) {
        return NULL;
    }
    CardInfo drawn, banned;
    if (read_card(card, self->wild_rank, &drawn) < 0) return NULL;
    int has_banned = optional_card(self, banned_card, &banned);
    int bound;
    if (has_banned < 0 || optional_bound(bound_value, &bound) < 0) return NULL;
    int best = swap_answer(self, &drawn, has_banned ? &banned : NULL, bound);
    return best == FAILED ? NULL : answer(best);
}

static PyObject *Solver_after_swap_apart(Solver *self, PyObject *Py_UNUSED(ignored)) {
    int apart;
    if (apart_answer(self, &apart) < 0) return NULL;
    if (apart < 0) Py_RETURN_NONE;
    return PyLong_FromLong(apart);
}

static PyObject *Solver_best_discard(Solver *self, PyObject *choices) {
    PyObject *sequence = PySequence_Fast(choices, "choices must be iterable");
    if (sequence == NULL) return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence);
    PyObject **items = PySequence_Fast_ITEMS(sequence);
    PyObject *best_card = NULL;
    CardInfo best_info = {0, 0, 0, 0};
    int best = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        CardInfo info;
        if (read_card(items[i], self->wild_rank, &info) < 0) goto fail;
        int index = held(self, &info);
        if (index < 0) goto fail;
        /* Ties keep the wilds, then throw the costliest, then the first in hand order. */
        int before = best_card == NULL ||
                     (info.wild != best_info.wild     ? info.wild < best_info.wild
                      : info.penalty != best_info.penalty ? info.penalty > best_info.penalty
                                                          : hand_order(&info) < hand_order(&best_info));
        if (best_card != NULL) {
            int floor = floor_less(&info, self->keep, self->counts.cost);
            if (floor > best || (floor == best && !before)) continue; /* it cannot win */
        }
        int penalty = penalty_less_index(self, index);
        if (penalty < 0) goto fail;
        if (best_card != NULL && (penalty > best || (penalty == best && !before))) continue;
        best_card = items[i];
        best_info = info;
        best = penalty;
    }
    if (best_card == NULL) {
        PyErr_SetString(PyExc_ValueError, "no card to discard");
        goto fail;
    }
    PyObject *result = Py_BuildValue("(Oi)", best_card, best);
    Py_DECREF(sequence);
    return result;
fail:
    Py_DECREF(sequence);
    return NULL;
}

static PyObject *Solver_ways_out(Solver *self, PyObject *Py_UNUSED(ignored)) {
    PyObject *found = PyList_New(0);
    if (found == NULL) return NULL;
    for (Py_ssize_t i = 0; i < self->distinct; i++) {
        /* Only a card worth at least the whole hand's penalty can leave 0 behind. */
        if (self->infos[i].penalty < self->keep) continue;
        int penalty = penalty_less_index(self, (int)i);
        if (penalty < 0 || (!penalty && PyList_Append(found, self->cards[i]) < 0)) {
            Py_DECREF(found);
            return NULL;
        }
    }
    return found;
}

static PyObject *Solver_whole_after(Solver *self, PyObject *card) {
    CardInfo info;
    if (read_card(card, self->wild_rank, &info) < 0) return NULL;
    Counts drawn = self->counts;
    count_in(&drawn, &info, 1);
    int penalty = counts_penalty(&drawn);
    return penalty < 0 ? NULL : PyLong_FromLong(penalty);
}

/* The slots of the hand's naturals' reach, a bit each: the same rank in every suit
 * (``same_rank``) and the same suit within a run's reach (its own slot only then). */
static uint64_t reach_mask(const Solver *self, int same_rank) {
    int reach = self->counts.wilds + 1 < RUN_REACH ? self->counts.wilds + 1 : RUN_REACH;
    uint64_t near = 0;
    for (int slot = 0; slot < SLOTS; slot++) {
        int suit = slot / RANKS, r = slot % RANKS;
        if (!field(&self->counts.naturals, suit, r)) continue;
        if (same_rank) {
            for (int other = 0; other < SUITS; other++) near |= 1ull << (other * RANKS + r);
        }
        int low = r - reach < 0 ? 0 : r - reach;
        int high = r + reach > RANKS - 1 ? RANKS - 1 : r + reach;
        for (int other = low; other <= high; other++) {
            if (same_rank || other != r) near |= 1ull << (suit * RANKS + other);
        }
    }
    return near;
}

static PyObject *slot_set(uint64_t slots) {
    PyObject *found = PySet_New(NULL);
    if (found == NULL) return NULL;
    for (int slot = 0; slot < SLOTS; slot++) {
        if (!(slots >> slot & 1)) continue;
        PyObject *number = PyLong_FromLong(slot);
        if (number == NULL || PySet_Add(found, number) < 0) {
            Py_XDECREF(number);
            Py_DECREF(found);
            return NULL;
        }
        Py_DECREF(number);
    }
    return found;
}

static PyObject *Solver_near_slots(Solver *self, PyObject *Py_UNUSED(ignored)) {
    if (self->near == NULL && (self->near = slot_set(reach_mask(self, 1))) == NULL) return NULL;
    return Py_NewRef(self->near);
}

static PyObject *Solver_suit_near_slots(Solver *self, PyObject *Py_UNUSED(ignored)) {
    if (self->suit_near == NULL && (self->suit_near = slot_set(reach_mask(self, 0))) == NULL) {
        return NULL;
    }
    return Py_NewRef(self->suit_near);
}

/* Is natural ``card`` in the bits of ``slots``? (A joker is in none.) -1: error. */
static int slot_in(const Solver *self, PyObject *card, uint64_t slots) {
    CardInfo info;
    if (read_card(card, self->wild_rank, &info) < 0) return -1;
    return info.code < SLOTS && (slots >> info.code & 1);
}

static PyObject *Solver_apart(Solver *self, PyObject *card) {
    int found = slot_in(self, card, reach_mask(self, 1));
    return found < 0 ? NULL : PyBool_FromLong(!found);
}

static PyObject *Solver_suit_alone(Solver *self, PyObject *card) {
    int found = slot_in(self, card, reach_mask(self, 0));
    return found < 0 ? NULL : PyBool_FromLong(!found);
}

static PyObject *Solver_may_meld(Solver *self, PyObject *card) {
    CardInfo info;
    if (read_card(card, self->wild_rank, &info) < 0) return NULL;
    if (info.wild || self->counts.wilds >= 2) Py_RETURN_TRUE;
    return PyBool_FromLong(reach_mask(self, 1) >> info.code & 1);
}

/* ------------------------------------------------------------------ a stock draw's value */

/* The most value of the hand's naturals that can share one meld with natural ``card``
 * (0: none can): a book of its rank, or a run of its suit spanning 3 to 5 ranks whose
 * missing ranks the wilds fill. (services/bots/five_crowns/values.py: _partners.) */
static int partners(const Solver *self, const CardInfo *card) {
    int wilds = self->counts.wilds, r = card->code % RANKS, suit = card->code / RANKS;
    int same = 0;
    for (int other = 0; other < SUITS; other++) same += (int)field(&self->counts.naturals, other, r);
    int book = same && same + wilds >= 2 ? card->rank * (same < BOOK_OTHERS ? same : BOOK_OTHERS) : 0;
    unsigned held_ranks = 0; /* a bit per rank index of its suit held, its own left out */
    for (int other = 0; other < RANKS; other++) {
        if (other != r && field(&self->counts.naturals, suit, other)) held_ranks |= 1u << other;
    }
    int run = 0;
    for (int length = MIN_MELD; length <= RUN_REACH + 1; length++) {
        int lowest = r - length + 1 < 0 ? 0 : r - length + 1;
        for (int low = lowest; low <= r && low + length - 1 < RANKS; low++) {
            unsigned window = ((1u << length) - 1) << low;
            unsigned present = held_ranks & window;
            if (!present || length - 1 - __builtin_popcount(present) > wilds) continue;
            int sum = 0;
            for (int other = 0; other < RANKS; other++) {
                if (present >> other & 1) sum += other + LOWEST_RANK;
            }
            if (sum > run) run = sum;
        }
    }
    return book > run ? book : run;
}

typedef struct {
    CardInfo card;   /* the kind's first card */
    long long copies;
    int ceiling;     /* throw it back, or keep it over and throw the best other card */
    int floor;
    int code;        /* where its value is kept (Solver.values) */
} Kind;

static int kind_order(const void *a, const void *b) { /* the widest bounds first */
    const Kind *x = a, *y = b;
    long long gx = x->copies * (x->ceiling - x->floor), gy = y->copies * (y->ceiling - y->floor);
    return gx < gy ? 1 : (gx > gy ? -1 : 0);
}

/* Is the sum over ``unseen`` (card -> copies) of after_swap(card) at most ``taking``
 * times the number of cards: is a stock draw's expected penalty at most ``taking``?
 *
 * Each card's value lies between a floor and its ceiling, min(keep, swap + its
 * penalty). A natural out of every natural's reach sits exactly at its ceiling (or
 * melds with two wilds: after_swap_apart). Cards of one value are one kind: the wild
 * rank's, and a natural with no natural of its suit in reach (only its rank counts).
 * The others are solved, widest bounds first, only until the sums decide. */
static PyObject *stock_answer(Solver *self, PyObject *unseen, long taking) {
    if (self->swap < 0) {
        int swap = self->distinct ? discard_answer(self, NULL, UNBOUNDED) : self->keep;
        if (swap == FAILED) return NULL;
        self->swap = swap;
    }
    int apart;
    if (apart_answer(self, &apart) < 0) return NULL;
    uint64_t near = reach_mask(self, 1), suit_near = reach_mask(self, 0);
    Kind kinds[VALUES];
    int by_code[VALUES];
    int kind_count = 0;
    for (int code = 0; code < VALUES; code++) by_code[code] = -1;
    long long cards = 0, low = 0, high = 0;
    Py_ssize_t at = 0;
    PyObject *card_object, *copies_object;
    while (PyDict_Next(unseen, &at, &card_object, &copies_object)) {
        CardInfo card;
        if (read_card(card_object, self->wild_rank, &card) < 0) return NULL;
        long long copies = PyLong_AsLongLong(copies_object);
        if (copies == -1 && PyErr_Occurred()) return NULL;
        cards += copies;
        int ceiling = self->swap + card.penalty < self->keep ? self->swap + card.penalty : self->keep;
        int code; /* where its value is kept */
        if (card.wild) {
            code = card.code == JOKER_CODE ? JOKER_CODE : WILD_RANK_VALUE;
        } else if (!(near >> card.code & 1)) { /* no meld with a natural of the hand */
            int value = apart >= 0 && apart < ceiling ? apart : ceiling;
            low += copies * value;
            high += copies * value;
            continue;
        } else {
            code = suit_near >> card.code & 1 ? card.code : RANK_VALUES + card.code % RANKS;
        }
        high += copies * ceiling;
        if (by_code[code] < 0) {
            by_code[code] = kind_count;
            Kind *kind = &kinds[kind_count++];
            kind->card = card;
            kind->copies = 0;
            kind->ceiling = ceiling;
            kind->code = code;
        }
        kinds[by_code[code]].copies += copies;
    }
    long long target = (long long)taking * cards;
    if (low > target) Py_RETURN_FALSE;
    if (high <= target) Py_RETURN_TRUE;
    for (int k = 0; k < kind_count; k++) {
        Kind *kind = &kinds[k];
        int floor = 0; /* a drawn wild could sit in any meld: not bounded */
        if (self->values[kind->code] >= 0) {
            floor = self->values[kind->code]; /* solved already: exact */
        } else if (!kind->card.wild) {
            /* Left over, or break up the meld holding it: the rest arranges the hand
             * less a discard (less the meld's wilds), losing at most its partners. */
            floor = kind->ceiling;
            int with = partners(self, &kind->card);
            int wild_penalty = self->counts.wilds < MIN_MELD ? self->counts.wild_penalty : 0;
            if (with && self->swap - wild_penalty - with < floor) {
                floor = self->swap - wild_penalty - with;
            }
            if (apart >= 0 && apart < floor) floor = apart;
            if (floor < 0) floor = 0;
        }
        if (floor > kind->ceiling) floor = kind->ceiling;
        kind->floor = floor;
        low += kind->copies * floor;
    }
    if (low > target) Py_RETURN_FALSE;
    qsort(kinds, (size_t)kind_count, sizeof(Kind), kind_order);
    for (int k = 0; k < kind_count; k++) {
        Kind *kind = &kinds[k];
        if (kind->ceiling == kind->floor) break; /* the rest are exact too */
        int value = self->values[kind->code];
        if (value < 0) {
            value = swap_answer(self, &kind->card, NULL, kind->ceiling);
            if (value == FAILED) return NULL;
            self->values[kind->code] = value;
        }
        low += kind->copies * (value - kind->floor);
        high -= kind->copies * (kind->ceiling - value);
        if (low > target) Py_RETURN_FALSE;
        if (high <= target) Py_RETURN_TRUE;
    }
    return PyBool_FromLong(high <= target);
}

static PyObject *Solver_draw_at_most(Solver *self, PyObject *args) {
    PyObject *given;
    long taking;
    if (!PyArg_ParseTuple(args, "Ol", &given, &taking)) return NULL;
    if (self->keep <= taking) Py_RETURN_TRUE; /* no card leaves more than keep */
    /* A dict (a Counter is one) is read as it is; another mapping is copied into one. */
    PyObject *unseen = PyDict_Check(given) ? Py_NewRef(given)
                                           : PyObject_CallOneArg((PyObject *)&PyDict_Type, given);
    if (unseen == NULL) return NULL;
    PyObject *result = stock_answer(self, unseen, taking);
    Py_DECREF(unseen);
    return result;
}

static PyObject *Solver_get_hand(Solver *self, void *Py_UNUSED(closure)) {
    if (self->hand == NULL) return PyList_New(0); /* made without __init__: no cards */
    return Py_NewRef(self->hand);
}

static PyObject *Solver_get_int(Solver *self, void *closure) {
    const char *name = closure;
    int value = 0;
    if (strcmp(name, "keep") == 0) value = self->keep;
    else if (strcmp(name, "wilds") == 0) value = self->counts.wilds;
    else if (strcmp(name, "wild_penalty") == 0) value = self->counts.wild_penalty;
    else if (strcmp(name, "wild_rank") == 0) value = self->wild_rank;
    return PyLong_FromLong(value);
}

static PyMethodDef Solver_methods[] = {
    {"penalty_less", (PyCFunction)Solver_penalty_less, METH_O,
     "The penalty of hand less one ``card`` (which it holds)."},
    {"after_discard", (PyCFunction)(void (*)(void))Solver_after_discard,
     METH_VARARGS | METH_KEYWORDS,
     "The lowest penalty of hand less one card other than ``banned``, at most ``bound``."},
    {"best_discard", (PyCFunction)Solver_best_discard, METH_O,
     "(card, penalty): the best of ``choices`` to throw (melds.best_discard_penalty's ties)."},
    {"ways_out", (PyCFunction)Solver_ways_out, METH_NOARGS,
     "The distinct cards whose discard leaves a hand that melds entirely."},
    {"whole_after", (PyCFunction)Solver_whole_after, METH_O,
     "The penalty of hand + ``card`` (nothing thrown)."},
    {"after_swap", (PyCFunction)(void (*)(void))Solver_after_swap, METH_VARARGS | METH_KEYWORDS,
     "The lowest penalty of hand + ``card`` less one card other than ``banned``."},
    {"after_swap_apart", (PyCFunction)Solver_after_swap_apart, METH_NOARGS,
     "swaps.SwapSolver.after_swap_apart: a drawn natural melded with wilds only."},
    {"near_slots", (PyCFunction)Solver_near_slots, METH_NOARGS,
     "The slots a natural can share a meld with a natural of hand from."},
    {"suit_near_slots", (PyCFunction)Solver_suit_near_slots, METH_NOARGS,
     "The slots with a natural of hand of another rank of their suit in reach."},
    {"apart", (PyCFunction)Solver_apart, METH_O,
     "Is natural ``card`` out of every natural's reach?"},
    {"suit_alone", (PyCFunction)Solver_suit_alone, METH_O,
     "Has natural ``card`` no natural of its suit (another rank) within a run's reach?"},
    {"may_meld", (PyCFunction)Solver_may_meld, METH_O,
     "Could ``card`` join a meld of hand + card? False only when it surely cannot."},
    {"draw_at_most", (PyCFunction)Solver_draw_at_most, METH_VARARGS,
     "Is the mean of after_swap over ``unseen`` (card -> copies) at most ``taking``?"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Solver_getset[] = {
    {"hand", (getter)Solver_get_hand, NULL, "The hand, as given.", NULL},
    {"keep", (getter)Solver_get_int, NULL, "The hand's lowest penalty.", "keep"},
    {"wilds", (getter)Solver_get_int, NULL, "How many wilds the hand holds.", "wilds"},
    {"wild_penalty", (getter)Solver_get_int, NULL, "What the hand's wilds cost.",
     "wild_penalty"},
    {"wild_rank", (getter)Solver_get_int, NULL, "The round's wild rank.", "wild_rank"},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine.five_crowns._meldcore.Solver",
    .tp_doc = PyDoc_STR("Solver(hand, wild_rank): swaps.SwapSolver's answers, compiled."),
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
};

/* ------------------------------------------------------------------ arrangements */

/* Which naturals meld together for the lowest penalty (melds._plan_search): the order
 * of the moves decides which of equally good melds is laid out, so this section follows
 * meld_search._moves and _trace, and melds._components and _share_wilds, exactly. */

static PyObject *RUN_KIND, *BOOK_KIND; /* "run", "book" */

typedef struct {
    Nat taken; /* the naturals the meld takes */
    Nat rest;
    int kind;  /* 'r', 'b', or 0: the card is left over */
    int need;
    int gained;
    int removed;
    int left;
} Move;

/* meld_search._moves: the same moves in the same order (the runs by need, then the
 * books in the order their counts are chosen, all sorted stably by need and value;
 * the leftover card last). */
static int moves_of(const Nat *hand, int count, int cap, Move *moves) {
    uint64_t folded = 0;
    for (int suit = 0; suit < SUITS; suit++) folded |= hand->s[suit];
    uint64_t spread = (folded | folded >> 1 | folded >> 2) & LOW_BITS;
    int rank_index = __builtin_ctzll(spread) / BITS;
    int suit = 0;
    while (!field(hand, suit, rank_index)) suit++;
    Nat lowest = {{0}};
    lowest.s[suit] = unit(rank_index);
    Nat rest = *hand;
    rest.s[suit] -= unit(rank_index);
    int value = rank_index + LOWEST_RANK;
    int n = 0;
    if (cap >= 2) {
        moves[n++] = (Move){lowest, rest, 'b', 2, value, value, count - 1};
    }
    int reach = RANKS - 1 - rank_index < RUN_REACH ? RANKS - 1 - rank_index : RUN_REACH;
    unsigned present = 0;
    for (int step = 1; step <= reach; step++) {
        if (field(&rest, suit, rank_index + step)) present |= 1u << (step - 1);
    }
    int runs_from = n;
    for (unsigned chosen = 1; chosen < (1u << reach); chosen++) {
        if (chosen & ~present) continue;
        int others = __builtin_popcount(chosen);
        int top = 32 - __builtin_clz(chosen);
        int need = (top + 1 > MIN_MELD ? top + 1 : MIN_MELD) - others - 1;
        if (need > cap) continue;
        Move move = {lowest, rest, 'r', need, value, 0, count - 1 - others};
        for (int step = 1; step <= reach; step++) {
            if (chosen >> (step - 1) & 1) {
                move.taken.s[suit] += unit(rank_index + step);
                move.rest.s[suit] -= unit(rank_index + step);
                move.gained += rank_index + step + LOWEST_RANK;
            }
        }
        move.removed = move.gained;
        /* Stably by need (meld_search._run_table sorts its patterns so). */
        int at = n++;
        while (at > runs_from && moves[at - 1].need > need) {
            moves[at] = moves[at - 1];
            at--;
        }
        moves[at] = move;
    }
    /* Books: counts chosen slot by slot (this one's twins, then the later suits), each
     * slot's count the faster-changing; book-only cards last, as how many of them. */
    int book_reach = cap + 1 < RUN_REACH ? cap + 1 : RUN_REACH;
    int combos_a[MAX_OPTIONS][SUITS + 1], combos_b[MAX_OPTIONS][SUITS + 1];
    int (*combos)[SUITS + 1] = combos_a, (*next)[SUITS + 1] = combos_b;
    int combo_count = 1;
    memset(combos[0], 0, sizeof(combos[0])); /* [SUITS]: the size */
    int only_suits[8 * SUITS];
    int only = 0;
    for (int other = suit; other < SUITS; other++) {
        int available = (int)field(&rest, other, rank_index);
        if (!available) continue;
        int low = rank_index - book_reach < 0 ? 0 : rank_index - book_reach;
        int high = rank_index + book_reach > RANKS - 1 ? RANKS - 1 : rank_index + book_reach;
        int near = 0;
        for (int r = low; r <= high && !near; r++) {
            if (r != rank_index && field(&rest, other, r)) near = 1;
        }
        if (!near) {
            for (int copy = 0; copy < available; copy++) only_suits[only++] = other;
            continue;
        }
        int made = 0;
        for (int c = 0; c < combo_count; c++) {
            int room = BOOK_OTHERS - combos[c][SUITS];
            int most = available < room ? available : room;
            for (int taken = 0; taken <= most && made < MAX_OPTIONS; taken++) {
                memcpy(next[made], combos[c], sizeof(next[made]));
                next[made][other] += taken;
                next[made][SUITS] += taken;
                made++;
            }
        }
        int (*swap)[SUITS + 1] = combos;
        combos = next;
        next = swap;
        combo_count = made;
    }
    if (only) {
        int made = 0;
        for (int c = 0; c < combo_count; c++) {
            int room = BOOK_OTHERS - combos[c][SUITS];
            int most = only < room ? only : room;
            for (int taken = 0; taken <= most && made < MAX_OPTIONS; taken++) {
                memcpy(next[made], combos[c], sizeof(next[made]));
                for (int i = 0; i < taken; i++) next[made][only_suits[i]] += 1;
                next[made][SUITS] += taken;
                made++;
            }
        }
        combos = next;
        combo_count = made;
    }
    for (int c = 0; c < combo_count && n < MAX_OPTIONS - 1; c++) {
        int size = combos[c][SUITS];
        int need = size >= MIN_MELD - 1 ? 0 : MIN_MELD - 1 - size;
        if (!size || need > cap) continue;
        Move move = {lowest, rest, 'b', need, value * (size + 1), value * (size + 1),
                     count - 1 - size};
        for (int other = 0; other < SUITS; other++) {
            uint64_t taken = (uint64_t)combos[c][other] * unit(rank_index);
            move.taken.s[other] += taken;
            move.rest.s[other] -= taken;
        }
        moves[n++] = move;
    }
    for (int i = 1; i < n; i++) { /* stably: the cheapest, then the richest */
        Move moving = moves[i];
        int j = i - 1;
        while (j >= 0 && (moves[j].need > moving.need ||
                          (moves[j].need == moving.need && moves[j].gained < moving.gained))) {
            moves[j + 1] = moves[j];
            j--;
        }
        moves[j + 1] = moving;
    }
    moves[n++] = (Move){{{0}}, rest, 0, 0, 0, value, count - 1};
    return n;
}

/* The multiset as meld_search writes it: one integer, 3 bits per slot. */
static PyObject *multiset_int(const Nat *n) {
    uint64_t words[3] = {0, 0, 0};
    for (int suit = 0; suit < SUITS; suit++) {
        int low = suit * RANKS * BITS;
        words[low / 64] |= n->s[suit] << (low % 64);
        if (low % 64 + RANKS * BITS > 64) words[low / 64 + 1] |= n->s[suit] >> (64 - low % 64);
    }
    PyObject *result = PyLong_FromUnsignedLongLong(words[2]);
    for (int i = 1; i >= 0 && result != NULL; i--) {
        PyObject *shift = PyLong_FromLong(64), *word = PyLong_FromUnsignedLongLong(words[i]);
        PyObject *shifted = shift && word ? PyNumber_Lshift(result, shift) : NULL;
        Py_DECREF(result);
        result = shifted ? PyNumber_Or(shifted, word) : NULL;
        Py_XDECREF(shift);
        Py_XDECREF(word);
        Py_XDECREF(shifted);
    }
    return result;
}

/* The best value of ``hand`` melded with ``budget`` wilds (the component search's). */
static int best_at(const Nat *hand, int count, int total, int wilds, int budget, int *out) {
    int cap = 2 * count < wilds ? 2 * count : wilds;
    int32_t small[SMALL + 1];
    int32_t *vector = cap <= SMALL ? small : PyMem_RawMalloc(((size_t)cap + 1) * 4);
    if (vector == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int status = solve(hand, count, total, cap, vector);
    if (status == 0) *out = vector[budget < cap ? budget : cap];
    if (vector != small) PyMem_RawFree(vector);
    return status;
}

/* meld_search._trace: append (kind, naturals' multiset) for each meld reaching the best
 * value of ``hand`` with ``budget`` of ``wilds`` wilds. */
static int trace(Nat hand, int count, int total, int wilds, int budget, PyObject *melds) {
    Move *moves = PyMem_RawMalloc(MAX_OPTIONS * sizeof(Move));
    if (moves == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int status = 0;
    while (count && status == 0) {
        int target;
        if ((status = best_at(&hand, count, total, wilds, budget, &target)) < 0) break;
        int n = moves_of(&hand, count, budget, moves);
        int found = 0;
        for (int i = 0; i < n && !found; i++) {
            const Move *move = &moves[i];
            int sub_budget = budget - move->need;
            if (sub_budget > wilds) sub_budget = wilds;
            if (sub_budget > 2 * move->left) sub_budget = 2 * move->left;
            int sub_total = total - move->removed, sub_value = 0;
            if (move->left &&
                best_at(&move->rest, move->left, sub_total, wilds, sub_budget, &sub_value) < 0) {
                status = -1;
                break;
            }
            if (move->gained + sub_value != target) continue;
            found = 1;
            if (move->kind) {
                PyObject *mask = multiset_int(&move->taken);
                PyObject *meld = mask ? PyTuple_Pack(2, move->kind == 'r' ? RUN_KIND : BOOK_KIND,
                                                     mask)
                                      : NULL;
                Py_XDECREF(mask);
                if (meld == NULL || PyList_Append(melds, meld) < 0) status = -1;
                Py_XDECREF(meld);
            }
            hand = move->rest;
            count = move->left;
            total = sub_total;
            budget = sub_budget;
        }
        if (status == 0 && !found) {
            PyErr_SetString(PyExc_AssertionError, "meld search is inconsistent");
            status = -1;
        }
    }
    PyMem_RawFree(moves);
    return status;
}

/* melds._plan_search: components in the order of their first card in ``naturals``,
 * the wilds shared (melds._share_wilds: the fewest on ties), each component traced. */
static PyObject *meldcore_plan(PyObject *Py_UNUSED(module), PyObject *const *args,
                               Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "plan(naturals, wilds)");
        return NULL;
    }
    long wilds_given = PyLong_AsLong(args[1]);
    if (wilds_given == -1 && PyErr_Occurred()) return NULL;
    if (wilds_given < 0 || wilds_given > 4 * SLOTS) {
        PyErr_SetString(PyExc_ValueError, "wilds out of range");
        return NULL;
    }
    int wilds = (int)wilds_given;
    PyObject *sequence = PySequence_Fast(args[0], "the naturals must be iterable");
    if (sequence == NULL) return NULL;
    Nat hand = {{0}};
    int first_seen[SLOTS]; /* the order of each slot's first card */
    int seen = 0;
    for (int slot = 0; slot < SLOTS; slot++) first_seen[slot] = -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence);
    for (Py_ssize_t i = 0; i < size; i++) {
        CardInfo info;
        if (read_card(PySequence_Fast_GET_ITEM(sequence, i), -1, &info) < 0) {
            Py_DECREF(sequence);
            return NULL;
        }
        if (info.code == JOKER_CODE) {
            Py_DECREF(sequence);
            PyErr_SetString(PyExc_ValueError, "a joker is no natural");
            return NULL;
        }
        if (first_seen[info.code] < 0) first_seen[info.code] = seen++;
        hand.s[info.code / RANKS] += unit(info.code % RANKS);
    }
    Py_DECREF(sequence);
    /* Components: as most_melded's, ordered by their first card. */
    int reach = wilds + 1 < RUN_REACH ? wilds + 1 : RUN_REACH;
    int parent[SLOTS], first_of_rank[RANKS];
    for (int r = 0; r < RANKS; r++) first_of_rank[r] = -1;
    for (int suit = 0; suit < SUITS; suit++) {
        int previous = -RANKS;
        for (int r = 0; r < RANKS; r++) {
            if (!field(&hand, suit, r)) continue;
            int slot = suit * RANKS + r;
            parent[slot] = slot;
            if (r - previous <= reach) join(parent, slot, suit * RANKS + previous);
            if (first_of_rank[r] < 0) {
                first_of_rank[r] = slot;
            } else {
                join(parent, slot, first_of_rank[r]);
            }
            previous = r;
        }
    }
    int by_order[SLOTS]; /* slots in the order first seen */
    for (int slot = 0; slot < SLOTS; slot++) {
        if (first_seen[slot] >= 0) by_order[first_seen[slot]] = slot;
    }
    Nat groups[SLOTS];
    int group_of_root[SLOTS], group_count = 0;
    for (int slot = 0; slot < SLOTS; slot++) group_of_root[slot] = -1;
    for (int i = 0; i < seen; i++) {
        int slot = by_order[i], root = root_of(parent, slot);
        if (group_of_root[root] < 0) {
            group_of_root[root] = group_count;
            memset(&groups[group_count++], 0, sizeof(Nat));
        }
        int suit = slot / RANKS, r = slot % RANKS;
        groups[group_of_root[root]].s[suit] |= (uint64_t)field(&hand, suit, r) << (BITS * r);
    }
    /* The wilds shared: for each budget, the fewest more wilds that strictly help. */
    size_t row = (size_t)wilds + 1;
    int32_t *vectors = PyMem_RawMalloc((group_count ? group_count : 1) * row * 4);
    int32_t *best = PyMem_RawMalloc(row * 4), *next_best = PyMem_RawMalloc(row * 4);
    int32_t *choices = PyMem_RawMalloc((group_count ? group_count : 1) * row * 4);
    int *caps = PyMem_RawMalloc((group_count ? group_count : 1) * sizeof(int));
    PyObject *melds = NULL;
    if (!vectors || !best || !next_best || !choices || !caps) {
        PyErr_NoMemory();
        goto done;
    }
    int counts[SLOTS], totals[SLOTS];
    for (size_t b = 0; b < row; b++) best[b] = 0;
    for (int g = 0; g < group_count; g++) {
        totals_of(&groups[g], &counts[g], &totals[g]);
        int cap = 2 * counts[g] < wilds ? 2 * counts[g] : wilds;
        caps[g] = cap;
        int32_t *vector = vectors + g * row;
        if (solve(&groups[g], counts[g], totals[g], cap, vector) < 0) goto done;
        for (int b = 0; b <= wilds; b++) {
            int used = 0;
            int limit = b < cap ? b : cap;
            for (int more = 1; more <= limit; more++) {
                if (best[b - more] + vector[more] > best[b - used] + vector[used]) used = more;
            }
            next_best[b] = best[b - used] + vector[used];
            choices[g * row + b] = used;
        }
        memcpy(best, next_best, row * 4);
    }
    int shares[SLOTS];
    int budget = wilds;
    for (int g = group_count - 1; g >= 0; g--) {
        shares[g] = choices[g * row + budget];
        budget -= shares[g];
    }
    melds = PyList_New(0);
    if (melds == NULL) goto done;
    for (int g = 0; g < group_count; g++) {
        if (trace(groups[g], counts[g], totals[g], wilds, shares[g], melds) < 0) {
            Py_CLEAR(melds);
            goto done;
        }
    }
done:
    PyMem_RawFree(vectors);
    PyMem_RawFree(best);
    PyMem_RawFree(next_best);
    PyMem_RawFree(choices);
    PyMem_RawFree(caps);
    return melds;
}

/* ------------------------------------------------------------------ module functions */

/* A meld_search multiset integer (3 bits per slot, slot = suit * 11 + rank - 3). */
static int read_multiset(PyObject *number, Nat *n) {
    if (!PyLong_Check(number)) {
        PyErr_SetString(PyExc_TypeError, "the multiset must be an int");
        return -1;
    }
    uint64_t words[3];
    PyObject *rest = Py_NewRef(number);
    PyObject *shift = PyLong_FromLong(64);
    if (shift == NULL) {
        Py_DECREF(rest);
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        words[i] = PyLong_AsUnsignedLongLongMask(rest);
        PyObject *next = PyNumber_Rshift(rest, shift);
        Py_DECREF(rest);
        if (next == NULL || (words[i] == (uint64_t)-1 && PyErr_Occurred())) {
            Py_XDECREF(next);
            Py_DECREF(shift);
            return -1;
        }
        rest = next;
    }
    int too_big = PyObject_IsTrue(rest);
    Py_DECREF(rest);
    Py_DECREF(shift);
    if (too_big) {
        PyErr_SetString(PyExc_ValueError, "not a multiset of Five Crowns naturals");
        return -1;
    }
    for (int suit = 0; suit < SUITS; suit++) {
        int low = suit * RANKS * BITS; /* the suit's first bit in the 192 */
        uint64_t word = words[low / 64] >> (low % 64);
        if (low % 64 + RANKS * BITS > 64) word |= words[low / 64 + 1] << (64 - low % 64);
        n->s[suit] = word & ((1ull << (RANKS * BITS)) - 1);
    }
    return 0;
}

static PyObject *vector_tuple(const int32_t *values, int cap) {
    PyObject *result = PyTuple_New(cap + 1);
    if (result == NULL) return NULL;
    for (int k = 0; k <= cap; k++) {
        PyObject *value = PyLong_FromLong(values[k]);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, k, value);
    }
    return result;
}

static PyObject *meldcore_best(PyObject *Py_UNUSED(module), PyObject *const *args,
                               Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "best(hand, count, total, wilds)");
        return NULL;
    }
    Nat hand;
    if (read_multiset(args[0], &hand) < 0) return NULL;
    long wilds = PyLong_AsLong(args[3]);
    if (wilds == -1 && PyErr_Occurred()) return NULL;
    int count, total; /* from the multiset itself (the arguments say the same) */
    totals_of(&hand, &count, &total);
    if (!count) return vector_tuple((const int32_t[]){0}, 0);
    long cap = wilds < 2L * count ? wilds : 2L * count;
    if (cap < 0) cap = 0;
    int32_t small[SMALL + 1];
    int32_t *out = cap <= SMALL ? small : PyMem_RawMalloc(((size_t)cap + 1) * 4);
    if (out == NULL) return PyErr_NoMemory();
    PyObject *result = NULL;
    if (solve(&hand, count, total, (int)cap, out) == 0) result = vector_tuple(out, (int)cap);
    if (out != small) PyMem_RawFree(out);
    return result;
}

static PyObject *meldcore_min_penalty(PyObject *Py_UNUSED(module), PyObject *const *args,
                                      Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "min_penalty(hand, wild_rank)");
        return NULL;
    }
    long wild_rank = PyLong_AsLong(args[1]);
    if (wild_rank == -1 && PyErr_Occurred()) return NULL;
    PyObject *sequence = PySequence_Fast(args[0], "the hand must be iterable");
    if (sequence == NULL) return NULL;
    Counts counts;
    memset(&counts, 0, sizeof(counts));
    Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence);
    for (Py_ssize_t i = 0; i < size; i++) {
        CardInfo info;
        if (read_card(PySequence_Fast_GET_ITEM(sequence, i), (int)wild_rank, &info) < 0) {
            Py_DECREF(sequence);
            return NULL;
        }
        count_in(&counts, &info, 1);
    }
    Py_DECREF(sequence);
    int penalty = counts_penalty(&counts);
    return penalty < 0 ? NULL : PyLong_FromLong(penalty);
}

static PyObject *meldcore_clear(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(ignored)) {
    if (depth == 0) memo_clear();
    Py_RETURN_NONE;
}

static PyMethodDef meldcore_methods[] = {
    {"best", (PyCFunction)(void (*)(void))meldcore_best, METH_FASTCALL,
     "meld_search._search: the most value of a component melded, per wild budget."},
    {"min_penalty", (PyCFunction)(void (*)(void))meldcore_min_penalty, METH_FASTCALL,
     "melds.min_penalty: the lowest penalty ``hand`` can be arranged to."},
    {"plan", (PyCFunction)(void (*)(void))meldcore_plan, METH_FASTCALL,
     "melds._plan_search: (kind, naturals' multiset) of each meld of the best arrangement."},
    {"clear", (PyCFunction)meldcore_clear, METH_NOARGS, "Forget every memoised search."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef meldcore_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "engine.five_crowns._meldcore",
    .m_doc = "The compiled core of the Five Crowns meld solver (the Python one is the "
             "reference).",
    .m_size = -1,
    .m_methods = meldcore_methods,
};

PyMODINIT_FUNC PyInit__meldcore(void) {
    if (PyType_Ready(&SolverType) < 0) return NULL;
    if (RUN_KIND == NULL && (RUN_KIND = PyUnicode_InternFromString("run")) == NULL) return NULL;
    if (BOOK_KIND == NULL && (BOOK_KIND = PyUnicode_InternFromString("book")) == NULL) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&meldcore_module);
    if (module == NULL) return NULL;
    if (PyModule_AddObjectRef(module, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
