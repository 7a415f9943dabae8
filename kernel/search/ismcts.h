/* SO-ISMCTS — single-observer information-set Monte Carlo tree search,
 * generic over the BLGameVTable (kernel/common/game_api.h).
 *
 * One iteration (Cowling, Powley & Whitehouse 2012, "SO-ISMCTS"):
 *   1. copy the root state into a scratch buffer and determinize it from the
 *      root player's information set (so the search never sees more than the
 *      observer knows: the true hidden part of the root is overwritten first);
 *   2. descend: chance nodes are sampled and applied WITHOUT moving in the
 *      tree (open-loop chance); at a decision node, children are keyed by
 *      (seat to move, action). If a legal action has no child yet, one of the
 *      untried actions is expanded (uniformly at random) and the descent stops;
 *      otherwise the legal children are compared with availability-aware UCB
 *          mean_i + c * sqrt(ln(availability_i) / visits_i)
 *      where availability_i counts the visits of the parent in which child i
 *      was legal (incremented for every legal child on the way); with
 *      params.bias > 0 a progressive-bias term bias * prior_i / (visits_i + 1)
 *      is added, prior_i being the heuristic evaluate() of the position right
 *      after the move (for the mover), taken on the determinization in which
 *      the child was created;
 *   3. rollout: uniformly random decisions (or the game's rollout_action,
 *      when its table has one), chance sampled with the state's own stream,
 *      to the end — or, with rollout_depth >= 0, stop after that
 *      many decisions — and use evaluate() there (at the end: the returns,
 *      or the game's graded form of them, game_api.h);
 *   4. backpropagate the returns vector: each node adds the return of the seat
 *      that made its move (max^n; team games give teammates equal returns, so
 *      team rewards follow without special cases).
 *
 * Guided search (params.net != NULL; docs/learning.md): step 2 changes. A node
 * reached for the first time by a seat to move is a leaf: the network reads
 * that seat's features in the current determinization (the root player's
 * unknowns were resampled in step 1, so the true hidden state never reaches
 * it) and gives a value per seat and a prior per legal action; every legal
 * action gets a child at once, holding its prior, and the descent stops there
 * (no untried-action expansion). A later determinization whose legal set has
 * actions without children evaluates the network there once more to give the
 * new children their priors, and the descent goes on. Selection is
 * availability-aware PUCT over the legal children:
 *     Q_i + cpuct * P_i * sqrt(availability_i) / (1 + visits_i)
 * with P renormalised over the children legal in this determinization and an
 * unvisited child's Q the mean of its visited legal siblings (0 if none).
 * Step 3 backs up the network's value (mix = 1) or mixes it with a rollout
 * from the leaf; a terminal leaf backs up evaluate() as the plain search does.
 *
 * Open hands (params.open_hands = 1): step 1 skips the determinization and
 * only reseeds the root copy's game stream from the determinization stream,
 * so the search sees every hand as it truly is (bridge "double dummy") but
 * future chance (draws from the stock) is still sampled afresh each iteration.
 * The rest of the algorithm is unchanged, which makes it the yardstick for
 * what hidden information costs the information-set search.
 *
 * Three random streams never mix: the game stream (inside each state), the
 * determinization stream and the search stream (expansion choice, rollout
 * decisions). Both search-side streams derive from params.seed, so a given
 * seed and iteration count give the same tree whatever the batching.
 *
 * Memory: the tree is one growable array of BLISNode (32 bytes each), grown
 * geometrically; links are int32 indices so growth never invalidates them.
 * No allocation happens in an iteration except that rare doubling.
 *
 * Thread-safety: a tree is used by one thread at a time; distinct trees are
 * independent (the game table functions are pure), so run() may be called
 * without the Python GIL.
 */
#ifndef BL_ISMCTS_H
#define BL_ISMCTS_H
#include <stdint.h>
#include <stddef.h>
#include "../common/game_api.h"
#include "../net/net.h"

typedef struct {
    double c;             /* exploration constant (returns in [-1, 1]); default 0.7 */
    int rollout_depth;    /* decisions before evaluate() cuts a rollout; -1 = play out */
    uint64_t seed;        /* search seed: derives the search and determinization streams */
    int64_t max_nodes;    /* stop expanding (except at the root) once reached; <= 0: no cap */
    double bias;          /* progressive-bias weight: UCB + bias * prior / (visits + 1),
                             prior = evaluate() after the move, taken when the child is
                             created; 0 = off (no evaluation at expansion) */
    int open_hands;       /* 1: search the TRUE root state, every hand face up (no
                             determinization; only the game stream is reseeded per
                             iteration, so future chance stays unknown). Sees hidden
                             information: analysis and measurement only, never a seat
                             in play. 0 (default): the information-set search. */
    const BLNet *net;     /* NULL (default): the plain search above. Else the guided search:
                             the network (read-only, may be shared by trees) is evaluated
                             once per iteration at the leaf, for the seat to move in the
                             determinization being searched; see "Guided search" above */
    double cpuct;         /* guided only: PUCT exploration weight; default 1.5 */
    double mix;           /* guided only: leaf value = mix * network + (1 - mix) * rollout;
                             1 (default) = the network alone, no rollout */
    int late_uniform;     /* guided only: a move first legal at a node that already has
                             children (another determinization, another chance outcome)
                             gets the prior 1 / legal moves instead of a network evaluation
                             there; 0 (default): the network's prior */
} BLSearchParams;

/* One tree node (32 bytes). The root is node 0 (player -1, action -1).
 * No parent link: an iteration remembers its path for backpropagation. */
typedef struct {
    float   prior;         /* heuristic value of the move for the mover (progressive bias) */
    int32_t first_child;   /* index of the first child, -1 if none */
    int32_t next_sibling;  /* index of the next child of the same parent, -1 if last */
    int16_t action;        /* action that leads here from the parent */
    int8_t  player;        /* seat that made that move (-1 for the root) */
    uint8_t _pad;          /* keeps the struct at 32 bytes */
    uint32_t visits;       /* iterations that went through this node */
    uint32_t avail;        /* visits of the parent in which this action was legal */
    double  value;         /* sum of the mover's returns over those iterations */
} BLISNode;

/* Statistics of one root action. */
typedef struct {
    int32_t action;
    uint32_t visits;
    uint32_t avail;
    double mean;           /* value / visits (0 when unvisited), mover's view */
    float prior;           /* guided search: the network's prior of the action (0 if
                              never evaluated); plain search with bias: its heuristic */
} BLISRootStat;

/* One exported node (pre-order, depth-first; children sorted by visits). */
typedef struct {
    int32_t id;            /* node index in the tree */
    int32_t parent;        /* node index of the parent (-1 for the root) */
    int32_t depth;         /* 0 for the root */
    int32_t action;        /* -1 for the root */
    int32_t player;        /* seat that made the move (-1 for the root) */
    uint32_t visits;
    double mean;           /* value / visits (0 when unvisited) */
} BLISExport;

typedef struct BLISTree BLISTree;

/* Default parameters (c = 0.7, full rollouts, seed 0, no node cap, no bias,
 * information-set search: open_hands = 0, no network; cpuct 1.5, mix 1,
 * late_uniform 0). */
BLSearchParams bl_ismcts_default_params(void);

/* A tree searching `root` (copied) for observer `root_player`. The root must
 * be a decision node (current player a seat). Returns NULL on bad arguments
 * or out of memory, with a message in err (if err != NULL). */
BLISTree *bl_ismcts_create(const BLGame *g, const void *root, int root_player,
                           const BLSearchParams *params, char *err, int errlen);
/* Run n more iterations (callable repeatedly). Returns iterations done, or -1
 * if the root could not be determinized (nothing more is searched). */
int64_t bl_ismcts_run(BLISTree *t, int64_t n);
/* Weighted worlds: instead of determinize(), each iteration starts from one of
 * these n full states (copied), drawn with probability weights[i] / sum from
 * the determinization stream, its game stream reseeded. The caller guarantees
 * each is a determinization of the root for root_player (same public state);
 * this is how inference from play (worlds weighted by how likely the others'
 * past moves were in them) reaches the search. Before the first iteration, not
 * with open_hands; weights finite >= 0 with a positive sum. 0, or -1 with a
 * message in err. */
int bl_ismcts_set_worlds(BLISTree *t, const void *const *states, const double *weights, int n,
                         char *err, int errlen);
void bl_ismcts_free(BLISTree *t);

int64_t bl_ismcts_iterations(const BLISTree *t);
int64_t bl_ismcts_num_nodes(const BLISTree *t);
/* Network evaluations so far (guided search; 0 for the plain one). */
int64_t bl_ismcts_net_evals(const BLISTree *t);
/* Bytes held by the tree (node array + buffers + state copies). */
size_t bl_ismcts_memory_bytes(const BLISTree *t);
size_t bl_ismcts_bytes_per_node(void);

/* Root stats: one entry per root child, plus (when the observer is the seat
 * to move) every legal root action not yet tried, sorted by action.
 * Writes at most cap entries; returns the number of entries available. */
int bl_ismcts_root_stats(const BLISTree *t, BLISRootStat *out, int cap);
/* Most-visited root action (ties: lowest action); -1 if no iteration ran. */
int32_t bl_ismcts_best_action(const BLISTree *t);
/* Principal variation: the most-visited path from the root (ties: first
 * created). Writes at most cap (player, action) pairs; returns the count. */
int bl_ismcts_pv(const BLISTree *t, int32_t *players, int32_t *actions, int cap);
/* Export the subtree down to max_depth, keeping at each node the top_k
 * children by visits. out == NULL: only count. Returns the node count
 * (entries beyond cap are not written). */
int64_t bl_ismcts_export(const BLISTree *t, int max_depth, int top_k,
                         BLISExport *out, int64_t cap);

#endif
