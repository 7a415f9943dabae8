/* SO-ISMCTS over the generic game table. See ismcts.h for the algorithm. */
#include "ismcts.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

struct BLISTree {
    const BLGame *g;
    BLSearchParams p;
    int root_player;
    int observer_to_move;  /* root_player is the seat to move at the root */
    void *root;            /* private copy of the root state */
    void *scratch;         /* the determinized state of the running iteration */
    BLRng search_rng;      /* expansion choices, rollout decisions */
    BLRng det_rng;         /* determinizations */
    BLISNode *nodes;
    int64_t n_nodes, cap;
    int32_t *legal;        /* max_legal */
    int32_t *untried;      /* max_legal */
    int32_t *child_of;     /* num_actions: child index + 1 for the current node, 0 none */
    int32_t *path;         /* nodes of the running iteration, root excluded */
    int64_t path_cap;
    double *eval;          /* num_players: scratch for evaluate() */
    int64_t iterations;
    int64_t net_evals;     /* network evaluations (guided search) */
    /* Weighted worlds (bl_ismcts_set_worlds): n_worlds states of state_size
     * bytes, drawn by weight instead of determinize(); 0 = determinize. */
    int n_worlds;
    unsigned char *worlds;
    double *world_cum;     /* cumulative weights, world_cum[n_worlds - 1] = total */
    /* Guided search (p.net): the buffers of one forward pass, owned per tree. */
    float *x;              /* feature_size */
    float *net_value;      /* n_value, relative to the evaluated seat */
    float *net_prior;      /* max_legal, aligned with legal */
    float *net_scratch;    /* bl_net_scratch_floats */
};

BLSearchParams bl_ismcts_default_params(void) {
    BLSearchParams p;
    p.c = 0.7; p.rollout_depth = -1; p.seed = 0; p.max_nodes = 0; p.bias = 0.0;
    p.open_hands = 0; p.net = NULL; p.cpuct = 1.5; p.mix = 1.0; p.late_uniform = 0;
    return p;
}

size_t bl_ismcts_bytes_per_node(void) { return sizeof(BLISNode); }

static void set_err(char *err, int errlen, const char *msg) {
    if (err && errlen > 0) snprintf(err, (size_t)errlen, "%s", msg);
}

/* Geometric growth keeps the amortised cost per node O(1); returns 0 on OOM. */
static int grow(BLISTree *t) {
    int64_t ncap = t->cap ? t->cap * 2 : 4096;
    if (ncap > INT32_MAX) ncap = INT32_MAX;
    if (ncap <= t->cap) return 0;
    BLISNode *nn = (BLISNode *)realloc(t->nodes, (size_t)ncap * sizeof(BLISNode));
    if (!nn) return 0;
    t->nodes = nn; t->cap = ncap;
    return 1;
}

static int32_t new_node(BLISTree *t, int32_t parent, int32_t action, int player) {
    if (t->n_nodes == t->cap && !grow(t)) return -1;
    int32_t id = (int32_t)t->n_nodes++;
    BLISNode *n = &t->nodes[id];
    n->prior = 0.0f; n->first_child = -1; n->next_sibling = -1;
    n->action = (int16_t)action; n->player = (int8_t)player; n->_pad = 0;
    n->visits = 0; n->avail = 0; n->value = 0.0;
    if (parent >= 0) {
        /* Append at the end of the sibling list so the child order is the
         * creation order (deterministic tie-breaks, stable exports). */
        BLISNode *pn = &t->nodes[parent];
        if (pn->first_child < 0) pn->first_child = id;
        else {
            int32_t c = pn->first_child;
            while (t->nodes[c].next_sibling >= 0) c = t->nodes[c].next_sibling;
            t->nodes[c].next_sibling = id;
        }
    }
    return id;
}

BLISTree *bl_ismcts_create(const BLGame *g, const void *root, int root_player,
                           const BLSearchParams *params, char *err, int errlen) {
    if (!g || !root) { set_err(err, errlen, "game and root state are required"); return NULL; }
    if (root_player < 0 || root_player >= g->num_players) {
        set_err(err, errlen, "player: not a seat of this game"); return NULL;
    }
    int cp = g->vt->current_player(g, root);
    if (cp < 0) { set_err(err, errlen, "state: the root must be a decision node"); return NULL; }
    BLSearchParams p = params ? *params : bl_ismcts_default_params();
    if (!(p.c >= 0.0) || isinf(p.c)) { set_err(err, errlen, "c: must be a finite number >= 0"); return NULL; }
    if (p.rollout_depth < -1) { set_err(err, errlen, "rollout_depth: must be -1 or >= 0"); return NULL; }
    if (!(p.bias >= 0.0) || isinf(p.bias)) { set_err(err, errlen, "bias: must be a finite number >= 0"); return NULL; }
    if (p.open_hands != 0 && p.open_hands != 1) { set_err(err, errlen, "open_hands: must be 0 or 1"); return NULL; }
    if (p.net) {
        if (bl_net_check_game(p.net, g, err, errlen) != 0) return NULL;
        if (!(p.cpuct >= 0.0) || isinf(p.cpuct)) { set_err(err, errlen, "cpuct: must be a finite number >= 0"); return NULL; }
        if (!(p.mix >= 0.0 && p.mix <= 1.0)) { set_err(err, errlen, "mix: must be a number in [0, 1]"); return NULL; }
        if (p.bias != 0.0) { set_err(err, errlen, "bias: not with a network (its prior takes the place of the bias)"); return NULL; }
        if (p.late_uniform != 0 && p.late_uniform != 1) { set_err(err, errlen, "late_uniform: must be 0 or 1"); return NULL; }
    }

    BLISTree *t = (BLISTree *)calloc(1, sizeof(BLISTree));
    if (!t) { set_err(err, errlen, "out of memory"); return NULL; }
    t->g = g; t->p = p; t->root_player = root_player;
    t->observer_to_move = (cp == root_player);
    t->root = malloc(g->state_size);
    t->scratch = malloc(g->state_size);
    t->legal = (int32_t *)malloc(sizeof(int32_t) * (size_t)(g->max_legal > 0 ? g->max_legal : 1));
    t->untried = (int32_t *)malloc(sizeof(int32_t) * (size_t)(g->max_legal > 0 ? g->max_legal : 1));
    t->child_of = (int32_t *)calloc((size_t)(g->num_actions > 0 ? g->num_actions : 1), sizeof(int32_t));
    t->path_cap = 256;
    t->path = (int32_t *)malloc(sizeof(int32_t) * (size_t)t->path_cap);
    t->eval = (double *)malloc(sizeof(double) * BL_MAX_PLAYERS);
    if (p.net) {
        t->x = (float *)malloc(sizeof(float) * (size_t)g->vt->feature_size(g));
        t->net_value = (float *)malloc(sizeof(float) * BL_MAX_PLAYERS);
        t->net_prior = (float *)malloc(sizeof(float) * (size_t)(g->max_legal > 0 ? g->max_legal : 1));
        t->net_scratch = (float *)malloc(sizeof(float) * bl_net_scratch_floats(p.net));
        if (!t->x || !t->net_value || !t->net_prior || !t->net_scratch) {
            bl_ismcts_free(t); set_err(err, errlen, "out of memory"); return NULL;
        }
    }
    if (!t->root || !t->scratch || !t->legal || !t->untried || !t->child_of || !t->path || !t->eval) {
        bl_ismcts_free(t); set_err(err, errlen, "out of memory"); return NULL;
    }
    memcpy(t->root, root, g->state_size);
    /* Two streams from one seed, on distinct splitmix64 sequences. */
    uint64_t x = p.seed ^ 0x5EA2C4ED15C0FFEEull;
    bl_rng_seed(&t->search_rng, bl_splitmix64(&x));
    bl_rng_seed(&t->det_rng, bl_splitmix64(&x));
    if (new_node(t, -1, -1, -1) != 0) { bl_ismcts_free(t); set_err(err, errlen, "out of memory"); return NULL; }
    if (p.open_hands) return t;   /* the true state is searched: nothing to check */
    /* A root no world agrees with is refused here rather than searched. (A
     * throw-away stream: the search's own streams stay as seeded.) */
    BLRng probe;
    bl_rng_seed(&probe, p.seed);
    memcpy(t->scratch, root, g->state_size);
    if (g->vt->determinize(g, t->scratch, root_player, &probe) != 0) {
        bl_ismcts_free(t);
        set_err(err, errlen, "state: no world agrees with what the player knows (inconsistent knowledge)");
        return NULL;
    }
    return t;
}

void bl_ismcts_free(BLISTree *t) {
    if (!t) return;
    free(t->root); free(t->scratch); free(t->legal); free(t->untried);
    free(t->child_of); free(t->path); free(t->eval); free(t->nodes);
    free(t->worlds); free(t->world_cum);
    free(t->x); free(t->net_value); free(t->net_prior); free(t->net_scratch); free(t);
}

int bl_ismcts_set_worlds(BLISTree *t, const void *const *states, const double *weights, int n,
                         char *err, int errlen) {
    const BLGame *g = t->g;
    if (t->p.open_hands) { set_err(err, errlen, "worlds: not with open_hands"); return -1; }
    if (t->iterations > 0) { set_err(err, errlen, "worlds: set before the first iteration"); return -1; }
    if (n <= 0 || !states || !weights) { set_err(err, errlen, "worlds: at least one world"); return -1; }
    double total = 0.0;
    for (int i = 0; i < n; i++) {
        if (!(weights[i] >= 0.0) || isinf(weights[i])) {
            set_err(err, errlen, "worlds: weights must be finite and >= 0"); return -1;
        }
        total += weights[i];
    }
    if (!(total > 0.0)) { set_err(err, errlen, "worlds: the weights sum to 0"); return -1; }
    unsigned char *w = (unsigned char *)malloc((size_t)n * g->state_size);
    double *cum = (double *)malloc(sizeof(double) * (size_t)n);
    if (!w || !cum) { free(w); free(cum); set_err(err, errlen, "out of memory"); return -1; }
    double acc = 0.0;
    for (int i = 0; i < n; i++) {
        memcpy(w + (size_t)i * g->state_size, states[i], g->state_size);
        acc += weights[i];
        cum[i] = acc;
    }
    free(t->worlds); free(t->world_cum);
    t->worlds = w; t->world_cum = cum; t->n_worlds = n;
    return 0;
}

/* A world by weight (binary search on the cumulative weights). */
static const void *draw_world(BLISTree *t) {
    int n = t->n_worlds, lo = 0, hi = n - 1;
    double u = bl_rng_double(&t->det_rng) * t->world_cum[n - 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (u < t->world_cum[mid]) hi = mid; else lo = mid + 1;
    }
    return t->worlds + (size_t)lo * t->g->state_size;
}

int64_t bl_ismcts_iterations(const BLISTree *t) { return t->iterations; }
int64_t bl_ismcts_num_nodes(const BLISTree *t) { return t->n_nodes; }
int64_t bl_ismcts_net_evals(const BLISTree *t) { return t->net_evals; }
size_t bl_ismcts_memory_bytes(const BLISTree *t) {
    const BLGame *g = t->g;
    return sizeof(BLISTree) + (size_t)t->cap * sizeof(BLISNode) + 2 * g->state_size
         + (size_t)t->n_worlds * (g->state_size + sizeof(double))
         + sizeof(int32_t) * (size_t)t->path_cap + sizeof(double) * BL_MAX_PLAYERS
         + 2 * sizeof(int32_t) * (size_t)g->max_legal + sizeof(int32_t) * (size_t)g->num_actions
         + (t->p.net ? sizeof(float) * ((size_t)g->vt->feature_size(g) + BL_MAX_PLAYERS
                                        + (size_t)g->max_legal + bl_net_scratch_floats(t->p.net))
                     : 0);
}

/* Playout from the scratch state (uniformly random decisions, or the game's
 * own rollout_action when it has one); fills ret (one value per seat). */
static void rollout(BLISTree *t, double *ret) {
    const BLGame *g = t->g;
    const BLGameVTable *vt = g->vt;
    void *st = t->scratch;
    int depth = 0, cut = t->p.rollout_depth;
    for (;;) {
        int cp = vt->current_player(g, st);
        if (cp == BL_TERMINAL) { vt->evaluate(g, st, ret); return; }   /* the returns, or graded */
        if (cp == BL_CHANCE) { vt->apply(g, st, vt->sample_chance(g, st)); continue; }
        if (cut >= 0 && depth >= cut) { vt->evaluate(g, st, ret); return; }
        int nl = vt->legal_actions(g, st, t->legal);
        if (nl <= 0) { vt->returns(g, st, ret); return; }   /* kernel bug guard */
        int32_t a = nl == 1 ? t->legal[0]
                  : vt->rollout_action ? vt->rollout_action(g, st, t->legal, nl, &t->search_rng)
                  : t->legal[bl_rng_below(&t->search_rng, (uint32_t)nl)];
        vt->apply(g, st, a);
        depth++;
    }
}

/* The world of one iteration in the scratch state; -1 when the root cannot be
 * determinized (then nothing is searched: the true hidden state is never a
 * substitute). */
static int start_world(BLISTree *t) {
    const BLGame *g = t->g;
    const BLGameVTable *vt = g->vt;
    void *st = t->scratch;
    if (t->n_worlds > 0) {
        /* A given world (already a determinization of the root): only its
         * future chance is resampled. */
        memcpy(st, draw_world(t), g->state_size);
        bl_rng_seed(bl_state_rng(st), bl_rng_next(&t->det_rng));
    } else {
        memcpy(st, t->root, g->state_size);
        if (t->p.open_hands) {
            /* Every hand face up; only the future (the game stream) is resampled. */
            bl_rng_seed(bl_state_rng(st), bl_rng_next(&t->det_rng));
        } else if (vt->determinize(g, st, t->root_player, &t->det_rng) != 0) {
            return -1;   /* first of all: forget what the observer cannot know */
        }
    }
    return 0;
}

/* Remember a node of the running iteration; 0 when out of memory. */
static int push_path(BLISTree *t, int64_t *depth, int32_t node) {
    if (*depth == t->path_cap) {
        int32_t *np = (int32_t *)realloc(t->path, sizeof(int32_t) * (size_t)(t->path_cap * 2));
        if (!np) return 0;
        t->path = np; t->path_cap *= 2;
    }
    t->path[(*depth)++] = node;
    return 1;
}

/* Step 4: every node of the path adds the return of the seat that moved into it. */
static void backup(BLISTree *t, int64_t depth, const double *ret) {
    for (int64_t k = 0; k < depth; k++) {
        BLISNode *nd = &t->nodes[t->path[k]];
        nd->visits++;
        nd->value += ret[nd->player];
    }
    t->nodes[0].visits++;
    t->iterations++;
}

/* One iteration of the plain search; -1 when the root cannot be determinized. */
static int iterate(BLISTree *t) {
    const BLGame *g = t->g;
    const BLGameVTable *vt = g->vt;
    void *st = t->scratch;
    double ret[BL_MAX_PLAYERS];
    int64_t cap = t->p.max_nodes;

    if (start_world(t) != 0) return -1;

    int32_t node = 0;
    int64_t depth = 0;
    int in_tree = 1;
    double bias = t->p.bias;
    while (in_tree) {
        int cp = vt->current_player(g, st);
        if (cp == BL_TERMINAL) break;
        if (cp == BL_CHANCE) {          /* open loop: chance does not move in the tree */
            vt->apply(g, st, vt->sample_chance(g, st));
            continue;
        }
        int nl = vt->legal_actions(g, st, t->legal);
        if (nl <= 0) break;              /* kernel bug guard: rollout() returns */
        /* Index the children of this node that belong to the seat to move. */
        for (int32_t c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling)
            if (t->nodes[c].player == cp) t->child_of[t->nodes[c].action] = c + 1;
        int nu = 0, n_avail = 0;
        for (int i = 0; i < nl; i++) {
            int32_t c = t->child_of[t->legal[i]] - 1;
            if (c >= 0) { t->nodes[c].avail++; n_avail++; }
            else t->untried[nu++] = t->legal[i];
        }
        int32_t next = -1, action = -1;
        if (nu > 0 && (node == 0 || cap <= 0 || t->n_nodes < cap)) {
            action = t->untried[nu == 1 ? 0 : bl_rng_below(&t->search_rng, (uint32_t)nu)];
            next = new_node(t, node, action, cp);   /* -1 only when out of memory */
            if (next >= 0) t->nodes[next].avail = 1;
            in_tree = 0;
        } else if (n_avail > 0) {
            /* Availability-aware UCB over the legal children. */
            double best = -INFINITY, c = t->p.c;
            for (int i = 0; i < nl; i++) {
                int32_t ch = t->child_of[t->legal[i]] - 1;
                if (ch < 0) continue;
                const BLISNode *n = &t->nodes[ch];
                double u = n->value / n->visits + c * sqrt(log((double)n->avail) / n->visits);
                if (bias > 0.0) u += bias * n->prior / (n->visits + 1.0);
                if (u > best) { best = u; next = ch; }
            }
            action = t->nodes[next].action;
        } else {
            in_tree = 0;                 /* node cap reached with nothing to select */
        }
        for (int32_t c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling)
            t->child_of[t->nodes[c].action] = 0;
        if (action < 0) break;
        vt->apply(g, st, action);
        if (next < 0) { in_tree = 0; continue; }    /* could not allocate: play on untracked */
        node = next;
        if (!push_path(t, &depth, node)) { in_tree = 0; break; }   /* out of memory: stop here */
        if (!in_tree && bias > 0.0) {            /* just created: its prior */
            vt->evaluate(g, st, t->eval);
            t->nodes[node].prior = (float)t->eval[cp];
        }
    }
    rollout(t, ret);
    backup(t, depth, ret);
    return 0;
}


/* The network at the scratch state for seat cp (legal[0..nl) as legal_actions
 * wrote them): priors into net_prior, values into v, one per absolute seat. */
static void net_eval(BLISTree *t, int cp, int nl, double *v) {
    const BLGame *g = t->g;
    int n = g->num_players;
    t->net_evals++;
    g->vt->features(g, t->scratch, cp, t->x);
    bl_net_forward(t->p.net, t->x, t->legal, nl, t->net_value, t->net_prior, t->net_scratch);
    for (int k = 0; k < n; k++) v[(cp + k) % n] = t->net_value[k];   /* value k is seat cp + k */
}

/* One iteration of the guided search (ismcts.h, "Guided search"). */
static int iterate_guided(BLISTree *t) {
    const BLGame *g = t->g;
    const BLGameVTable *vt = g->vt;
    void *st = t->scratch;
    double ret[BL_MAX_PLAYERS];
    int64_t cap = t->p.max_nodes;
    if (start_world(t) != 0) return -1;

    int32_t node = 0;
    int64_t depth = 0;
    int leaf = 0;          /* 1: ret holds the network's value at the leaf */
    for (;;) {
        int cp = vt->current_player(g, st);
        if (cp == BL_TERMINAL) { vt->evaluate(g, st, ret); break; }
        if (cp == BL_CHANCE) { vt->apply(g, st, vt->sample_chance(g, st)); continue; }
        int nl = vt->legal_actions(g, st, t->legal);
        if (nl <= 0) { vt->returns(g, st, ret); break; }    /* kernel bug guard */
        int had_children = 0, missing = 0;
        for (int32_t c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling)
            if (t->nodes[c].player == cp) { t->child_of[t->nodes[c].action] = c + 1; had_children = 1; }
        for (int i = 0; i < nl; i++) {
            int32_t c = t->child_of[t->legal[i]] - 1;
            if (c >= 0) t->nodes[c].avail++;
            else missing = 1;
        }
        if (missing) {
            int grows = node == 0 || cap <= 0 || t->n_nodes < cap;
            /* A late move with a uniform prior needs no evaluation: only a leaf does. */
            int uniform = t->p.late_uniform && had_children && grows;
            if (!uniform) net_eval(t, cp, nl, ret);
            for (int i = 0; grows && i < nl; i++) {
                if (t->child_of[t->legal[i]]) continue;
                int32_t c = new_node(t, node, t->legal[i], cp);
                if (c < 0) break;                 /* out of memory: search what exists */
                t->nodes[c].prior = uniform ? 1.0f / (float)nl : t->net_prior[i];
                t->nodes[c].avail = 1;
                t->child_of[t->legal[i]] = c + 1;
            }
            /* A node met for the first time by this seat is the leaf: its value
             * is the network's. So is a node that may not grow and lacks a move. */
            if (!had_children || !grows) leaf = 1;
        }
        int32_t next = -1;
        if (!leaf) {
            double psum = 0.0, vsum = 0.0, nsum = 0.0;
            for (int i = 0; i < nl; i++) {
                int32_t ch = t->child_of[t->legal[i]] - 1;
                if (ch < 0) continue;
                psum += t->nodes[ch].prior;
                vsum += t->nodes[ch].value; nsum += t->nodes[ch].visits;
            }
            double fpu = nsum > 0.0 ? vsum / nsum : 0.0;
            double scale = t->p.cpuct / (psum > 0.0 ? psum : 1.0), best = -INFINITY;
            for (int i = 0; i < nl; i++) {
                int32_t ch = t->child_of[t->legal[i]] - 1;
                if (ch < 0) continue;
                const BLISNode *n = &t->nodes[ch];
                double q = n->visits ? n->value / n->visits : fpu;
                double u = q + scale * n->prior * sqrt((double)n->avail) / (1.0 + n->visits);
                if (u > best) { best = u; next = ch; }
            }
            if (next < 0) {                       /* nothing could be created: the leaf */
                net_eval(t, cp, nl, ret);
                leaf = 1;
            }
        }
        for (int32_t c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling)
            t->child_of[t->nodes[c].action] = 0;
        if (leaf) break;
        vt->apply(g, st, t->nodes[next].action);
        node = next;
        if (!push_path(t, &depth, node)) { rollout(t, ret); break; }   /* out of memory */
    }
    if (leaf && t->p.mix < 1.0) {
        double roll[BL_MAX_PLAYERS], m = t->p.mix;
        rollout(t, roll);
        for (int k = 0; k < g->num_players; k++) ret[k] = m * ret[k] + (1.0 - m) * roll[k];
    }
    backup(t, depth, ret);
    return 0;
}

int64_t bl_ismcts_run(BLISTree *t, int64_t n) {
    int (*step)(BLISTree *) = t->p.net ? iterate_guided : iterate;
    for (int64_t i = 0; i < n; i++)
        if (step(t) != 0) return -1;
    return n > 0 ? n : 0;
}

static int cmp_stat(const void *a, const void *b) {
    const BLISRootStat *x = (const BLISRootStat *)a, *y = (const BLISRootStat *)b;
    return (x->action > y->action) - (x->action < y->action);
}

int bl_ismcts_root_stats(const BLISTree *t, BLISRootStat *out, int cap) {
    const BLGame *g = t->g;
    int n = 0, total = g->num_actions + 1;
    BLISRootStat *tmp = (BLISRootStat *)malloc(sizeof(BLISRootStat) * (size_t)total * 2);
    uint8_t *seen = (uint8_t *)calloc((size_t)g->num_actions + 1, 1);
    if (!tmp || !seen) { free(tmp); free(seen); return 0; }
    for (int32_t c = t->nodes[0].first_child; c >= 0; c = t->nodes[c].next_sibling) {
        const BLISNode *nd = &t->nodes[c];
        tmp[n].action = nd->action; tmp[n].visits = nd->visits; tmp[n].avail = nd->avail;
        tmp[n].mean = nd->visits ? nd->value / nd->visits : 0.0;
        tmp[n].prior = nd->prior;
        seen[nd->action] = 1; n++;
    }
    if (t->observer_to_move) {
        /* The observer's own legal actions are known to them: list the untried. */
        int32_t *legal = (int32_t *)malloc(sizeof(int32_t) * (size_t)g->max_legal);
        if (legal) {
            int nl = g->vt->legal_actions(g, t->root, legal);
            for (int i = 0; i < nl; i++) if (!seen[legal[i]]) {
                tmp[n].action = legal[i]; tmp[n].visits = 0; tmp[n].avail = 0; tmp[n].mean = 0.0;
                tmp[n].prior = 0.0f;
                seen[legal[i]] = 1; n++;
            }
            free(legal);
        }
    }
    qsort(tmp, (size_t)n, sizeof(BLISRootStat), cmp_stat);
    for (int i = 0; i < n && i < cap; i++) out[i] = tmp[i];
    free(tmp); free(seen);
    return n;
}

/* Most-visited child (ties: first created); -1 if none was visited. */
static int32_t most_visited(const BLISTree *t, int32_t node) {
    int32_t best = -1; uint32_t bv = 0;
    for (int32_t c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling)
        if (t->nodes[c].visits > bv) { bv = t->nodes[c].visits; best = c; }
    return best;
}

int32_t bl_ismcts_best_action(const BLISTree *t) {
    /* Most visits; ties broken by the lowest action (independent of creation order). */
    int32_t best = -1; uint32_t bv = 0;
    for (int32_t c = t->nodes[0].first_child; c >= 0; c = t->nodes[c].next_sibling) {
        const BLISNode *nd = &t->nodes[c];
        if (nd->visits > bv || (nd->visits == bv && bv > 0 && nd->action < best)) {
            bv = nd->visits; best = nd->action;
        }
    }
    return best;
}

int bl_ismcts_pv(const BLISTree *t, int32_t *players, int32_t *actions, int cap) {
    int n = 0;
    for (int32_t node = most_visited(t, 0); node >= 0 && n < cap; node = most_visited(t, node)) {
        players[n] = t->nodes[node].player; actions[n] = t->nodes[node].action; n++;
    }
    return n;
}

typedef struct { int32_t id; uint32_t visits; } Kid;
static int cmp_kid(const void *a, const void *b) {
    const Kid *x = (const Kid *)a, *y = (const Kid *)b;
    if (x->visits != y->visits) return x->visits < y->visits ? 1 : -1;
    return (x->id > y->id) - (x->id < y->id);
}

static void export_rec(const BLISTree *t, int32_t node, int32_t parent, int depth, int max_depth,
                       int top_k, BLISExport *out, int64_t cap, int64_t *n) {
    if (out && *n < cap) {
        const BLISNode *nd = &t->nodes[node];
        BLISExport *e = &out[*n];
        e->id = node; e->parent = parent; e->depth = depth; e->action = nd->action;
        e->player = nd->player; e->visits = nd->visits;
        e->mean = nd->visits ? nd->value / nd->visits : 0.0;
    }
    (*n)++;
    if (depth >= max_depth) return;
    int nk = 0;
    for (int32_t c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling) nk++;
    if (nk == 0) return;
    Kid *kids = (Kid *)malloc(sizeof(Kid) * (size_t)nk);
    if (!kids) return;
    nk = 0;
    for (int32_t c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling) {
        kids[nk].id = c; kids[nk].visits = t->nodes[c].visits; nk++;
    }
    qsort(kids, (size_t)nk, sizeof(Kid), cmp_kid);
    int lim = (top_k >= 0 && top_k < nk) ? top_k : nk;
    for (int i = 0; i < lim; i++)
        if (kids[i].visits > 0) export_rec(t, kids[i].id, node, depth + 1, max_depth, top_k, out, cap, n);
    free(kids);
}

int64_t bl_ismcts_export(const BLISTree *t, int max_depth, int top_k, BLISExport *out, int64_t cap) {
    int64_t n = 0;
    export_rec(t, 0, -1, 0, max_depth < 0 ? 0 : max_depth, top_k, out, cap, &n);
    return n;
}
