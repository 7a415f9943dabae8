/* Nukumi: the five phases of a round, the actions, the effect stack that
 * resolves everything an action, card or square does, chance outcomes and
 * determinization. */
#include <string.h>
#include "nukumi.h"
#include "../common/bitboard.h"

#define ST(v) ((NkState *)(v))
#define CST(v) ((const NkState *)(v))
#define PAY_FREE 63   /* option bit of a cost with no resource slot */

int nk_total(const int8_t *r) {
    int t = 0;
    for (int k = 0; k < NK_NRES; k++) t += r[k];
    return t;
}

int nk_draw_size(const NkConfig *c, const NkState *s, int p) {
    if (s->partner[p] < 0) return 0;
    return c->partner[(int)s->partner[p]].draw[(int)s->cubes[p]] + (s->start_down && s->start_holder == p);
}

static int held_cards(const NkState *s, int p) { return (s->card[p][0] >= 0) + (s->card[p][1] >= 0); }

/* ---------- advanced rules: face-up rows and the known bottom of the decks ---------- */

static int row_count(const int8_t *row) { return (row[0] >= 0) + (row[1] >= 0) + (row[2] >= 0); }

/* Take slot i: the cards left of it slide one slot right, slot 0 empties. */
static void row_take(int8_t *row, int x) {
    int i = 0;
    while (i < 2 && row[i] != x) i++;
    for (int j = i; j > 0; j--) row[j] = row[j - 1];
    row[0] = -1;
}

static void row_fill(int8_t *row, int x) {
    for (int i = 0; i < 3; i++)
        if (row[i] < 0) { row[i] = (int8_t)x; return; }
}

static int bottom_take(int8_t *list, int8_t *n) {
    int x = list[0];
    for (int i = 1; i < *n; i++) list[i - 1] = list[i];
    (*n)--;
    return x;
}

static void sync_open(const NkConfig *c, NkState *s) {
    if (!c->advanced) return;
    s->cards_open = 0;
    for (int i = 0; i < 3; i++)
        if (s->crow[i] >= 0) s->cards_open |= (uint16_t)(1u << s->crow[i]);
}

static int cards_available(const NkState *s) { return s->cards_open || s->cdeck || s->n_cbot; }

static void give_card(NkState *s, int p, int k) { s->card[p][s->card[p][0] >= 0] = (int8_t)k; }

static void push(NkState *s, int op, int a, int b) {
    if (op == EF_NONE || s->sp >= NK_STACK) return;
    NkFrame *f = &s->stack[(int)s->sp++];
    f->op = (int8_t)op; f->a = (int8_t)a; f->b = (int8_t)b; f->_pad = 0;
}

/* Effects resolve first to last: push them in reverse. */
static void push_effects(NkState *s, const NkEff *e) {
    for (int i = NK_NEFF - 1; i >= 0; i--) push(s, e[i].op, e[i].a, e[i].b);
}

/* ---------- paying ---------- */

static int can_pay_dfs(const NkCost *cost, int i, int8_t *left) {
    if (i == cost->n) return 1;
    for (int r = 0; r < NK_NRES; r++)
        if ((cost->mask[i] >> r & 1) && left[r] > 0) {
            left[r]--;
            int ok = can_pay_dfs(cost, i + 1, left);
            left[r]++;
            if (ok) return 1;
        }
    return 0;
}

static int can_pay(const NkCost *cost, const int8_t *have) {
    int8_t left[NK_NRES];
    memcpy(left, have, sizeof left);
    return can_pay_dfs(cost, 0, left);
}

static void pay_dfs(const NkConfig *c, const NkCost *cost, int i, int8_t *left, int *cnt, uint64_t *out) {
    if (i == cost->n) {
        int key = 0;
        for (int r = 0; r < NK_NRES; r++) key |= cnt[r] << (2 * r);
        *out |= 1ull << c->ms_index[key];
        return;
    }
    for (int r = 0; r < NK_NRES; r++)
        if ((cost->mask[i] >> r & 1) && left[r] > 0) {
            left[r]--; cnt[r]++;
            pay_dfs(c, cost, i + 1, left, cnt, out);
            left[r]++; cnt[r]--;
        }
}

/* Resource multisets payable for a cost from `have` (bit m = multiset m). */
static uint64_t nk_pay_options(const NkConfig *c, const NkCost *cost, const int8_t *have) {
    if (cost->n == 0) return 1ull << PAY_FREE;
    int8_t left[NK_NRES];
    int cnt[NK_NRES] = {0};
    uint64_t out = 0;
    memcpy(left, have, sizeof left);
    pay_dfs(c, cost, 0, left, cnt, &out);
    return out;
}

/* The cost of an action (kind PK_*, index) for seat p; tmp holds a computed one. */
static const NkCost *nk_cost_of(const NkConfig *c, const NkState *s, int kind, int idx, int p, NkCost *tmp) {
    switch (kind) {
    case PK_SPOT:
        if (idx == SPOT_ADD) {
            *tmp = c->spot_cost[idx];
            tmp->coins = c->add_coins[held_cards(s, p) > 0];
            return tmp;
        }
        return &c->spot_cost[idx];
    case PK_BUILD: case PK_EFFECT_BUILD: return &c->bld_cost[idx];
    case PK_PARTNER: return &c->partner[(int)s->partner[p]].spec;
    default: return &c->card_cost[(int)s->card[p][idx]];
    }
}

static int affordable(const NkConfig *c, const NkState *s, int kind, int idx, int p) {
    NkCost tmp;
    const NkCost *cost = nk_cost_of(c, s, kind, idx, p, &tmp);
    return s->coins[p] >= cost->coins && can_pay(cost, s->drawn[p]);
}

static int buildable(const NkConfig *c, const NkState *s, int sq) {
    return !c->sq_ribbon[sq] && !(s->built >> sq & 1);
}

/* Buildings seat p could construct on its square now: tiles left, paid from drawn resources. */
static int emit_buildings(const NkConfig *c, const NkState *s, int p, int32_t *out, int n) {
    if (!buildable(c, s, s->pos[p]) || s->cubes[p] >= NK_CUBES) return n;
    for (int b = 0; b < NK_NBLD; b++)
        if (s->bld_left[b] > 0 && affordable(c, s, PK_BUILD, b, p)) out[n++] = NA_BUILD + b;
    return n;
}

/* A "build" effect waits for a decision only if some building could be paid for
 * (on this square, or on another one reached by a free move first). */
static int could_build(const NkConfig *c, const NkState *s, int p) {
    if (s->cubes[p] >= NK_CUBES) return 0;
    for (int b = 0; b < NK_NBLD; b++)
        if (s->bld_left[b] > 0 && affordable(c, s, PK_BUILD, b, p)) return 1;
    return 0;
}

/* ---------- flow ---------- */

static int seat_at(const NkConfig *c, const NkState *s, int i) { return (s->round_first + i) % c->players; }

static int begin_events(const NkConfig *c, NkState *s) {
    s->ctx = CTX_EVENT;
    s->order_i = 0;
    s->round_first = s->start_holder;
    s->to_move = s->round_first;
    s->phase = NP_EVENT;
    return 0;
}

/* Returns 1 when it pushed effects to run (Score Attack's NPC moves). */
static int begin_round(const NkConfig *c, NkState *s) {
    if (c->solo == SOLO_SCORE_ATTACK) {   /* the NPCs move first, one after another */
        s->ctx = CTX_NPC;
        s->npc = 1;
        s->to_move = 0;
        push(s, EF_NPCMOVE, 1, 0);
        push(s, EF_NPCROLL, 1, 0);
        return 1;
    }
    return begin_events(c, s);
}

/* Returns 1 when it pushed effects to run (the advanced rows' refills). */
static int cleanup(const NkConfig *c, NkState *s) {
    for (int p = 0; p < c->players; p++) {
        for (int k = 0; k < NK_NRES; k++) {
            s->bag[p][k] = (int8_t)nk_owned(s, p, k);
            s->drawn[p][k] = s->spent[p][k] = 0;
        }
        s->used[p] = 0;
    }
    s->passed = 0;
    s->round++;
    if (s->round >= NK_ROUNDS) {
        s->phase = NP_OVER;
        s->to_move = -1;
        return 0;
    }
    if (c->advanced) {
        /* The right-most card of each row goes under its deck, the others
         * slide right, slot 0 is refilled (Helpers first). */
        if (s->crow[2] >= 0) s->cbot[(int)s->n_cbot++] = s->crow[2];
        row_take(s->crow, s->crow[2]);
        if (s->hrow[2] >= 0) s->hbot[(int)s->n_hbot++] = s->hrow[2];
        row_take(s->hrow, s->hrow[2]);
        sync_open(c, s);
        s->ctx = CTX_CLEANUP;
        push(s, EF_REFILL_C, 1, 0);
        push(s, EF_REFILL_H, 1, 0);
        return 1;
    }
    return begin_round(c, s);
}

/* The next seat (clockwise from `from`, inclusive) still in the round takes
 * a turn; a seat without resources passes. Everyone passed: clean-up. */
static int next_turn(const NkConfig *c, NkState *s, int from) {
    for (int i = 0; i < c->players; i++) {
        int p = (from + i) % c->players;
        if (s->passed >> p & 1) continue;
        if (nk_total(s->drawn[p]) == 0) { s->passed |= (int8_t)(1 << p); continue; }
        s->to_move = (int8_t)p;
        s->in_action = 0;
        s->rode = 0;
        s->bonus_used = 0;
        s->phase = NP_TURN;
        return 0;
    }
    return cleanup(c, s);
}

static int draw_next(const NkConfig *c, NkState *s) {
    while (s->order_i < c->players) {
        int p = seat_at(c, s, s->order_i);
        int n = nk_draw_size(c, s, p), inbag = nk_total(s->bag[p]);
        if (n > inbag) n = inbag;
        if (n > 0) {
            s->to_move = (int8_t)p;
            s->draw_left = (int8_t)n;
            s->phase = NP_DRAW;
            return 0;
        }
        s->order_i++;
    }
    s->ctx = CTX_TURN;
    s->passed = 0;
    return next_turn(c, s, s->round_first);
}

/* ---------- Score Attack: the NPC pioneers ---------- */

typedef struct { int8_t sq[4]; int8_t len; } NkRoute;

static void routes_dfs(const NkConfig *c, const NkState *s, int x, int depth, int len, int8_t *path,
                       NkRoute *out, int *n) {
    if (depth == len) {
        if (*n < NK_MAXROUTES) {
            for (int i = 0; i < len; i++) out[*n].sq[i] = path[i];
            out[*n].len = (int8_t)len;
            (*n)++;
        }
        return;
    }
    int d = c->walk[x][(int)s->nuku];
    for (uint64_t m = c->nbr[x]; m;) {
        int y = bb_pop_lsb64(&m);
        if (c->walk[y][(int)s->nuku] != d - 1) continue;
        path[depth] = (int8_t)y;
        routes_dfs(c, s, y, depth + 1, len, path, out, n);
    }
}

static int route_cubes(const NkConfig *c, const NkState *s, const NkRoute *r) {
    int k = 0;
    for (int i = 0; i < r->len; i++) k += !c->sq_ribbon[(int)r->sq[i]] && !(s->built >> r->sq[i] & 1);
    return k;
}

/* The moving NPC's candidate routes this step (the first steps of its
 * shortest walks to Nukumaru) and, in tied, those placing the most cubes. */
static int best_routes(const NkConfig *c, const NkState *s, NkRoute *r, int *tied) {
    int from = s->pos[(int)s->npc], d = c->walk[from][(int)s->nuku];
    int len = s->npc_steps < d ? s->npc_steps : d, n = 0, nt = 0, best = -1;
    int8_t path[4];
    routes_dfs(c, s, from, 0, len, path, r, &n);
    for (int i = 0; i < n; i++) {
        int k = route_cubes(c, s, &r[i]);
        if (k > best) { best = k; nt = 0; }
        if (k == best) tied[nt++] = i;
    }
    return nt;
}

static void apply_route(const NkConfig *c, NkState *s, const NkRoute *r) {
    for (int i = 0; i < r->len; i++) {
        int sq = r->sq[i];
        s->pos[(int)s->npc] = (int8_t)sq;
        if (!c->sq_ribbon[sq] && !(s->built >> sq & 1)) {   /* a cube: counts as built */
            s->built |= 1ull << sq;
            s->bld_type[sq] = -1;
            s->bld_owner[sq] = -1;
        }
    }
    s->npc_steps = (int8_t)(s->npc_steps - r->len);
    if (s->pos[(int)s->npc] == s->nuku) {     /* the NPC caught it: the card face up again */
        s->start_down = 0;
        push(s, EF_NUKU, 1, 0);
    }
}

/* Walk the moving NPC; returns 1 when the player must choose among tied routes. */
static int npc_walk(const NkConfig *c, NkState *s) {
    NkRoute r[NK_MAXROUTES];
    int tied[NK_MAXROUTES];
    int nt = best_routes(c, s, r, tied);
    if (nt == 0) { s->npc_steps = 0; return 0; }
    if (nt > 1) { s->phase = NP_ROUTE; s->to_move = 0; return 1; }
    apply_route(c, s, &r[tied[0]]);
    return 0;
}

int nk_route_squares(const BLGame *g, const void *vst, int i, int8_t *sq) {
    const NkState *s = (const NkState *)vst;
    /* Only while a route is chosen is s->npc an NPC (1..3) and Nukumaru placed: elsewhere
     * (a route named on another state) there is no route to read. */
    if (s->phase != NP_ROUTE || s->npc < 1 || s->npc > NK_NPCS || s->nuku < 0) return 0;
    NkRoute r[NK_MAXROUTES];
    int tied[NK_MAXROUTES];
    int nt = best_routes(NK_CFG(g), s, r, tied);
    if (i < 0 || i >= nt) return 0;
    for (int k = 0; k < r[tied[i]].len; k++) sq[k] = r[tied[i]].sq[k];
    return r[tied[i]].len;
}

/* The effect stack ran empty: continue the phase. Returns 1 if more effects
 * were pushed (run on), 0 once a decision or chance node is set. */
static int resume(const NkConfig *c, NkState *s) {
    int P = c->players;
    switch (s->ctx) {
    case CTX_SETUP_NUKU:
        s->ctx = CTX_START;
        s->order_i = 0;
        s->to_move = s->round_first;
        push_effects(s, c->partner[(int)s->partner[(int)s->to_move]].start);
        return 1;
    case CTX_START:
        if (++s->order_i < P) {
            s->to_move = (int8_t)seat_at(c, s, s->order_i);
            push_effects(s, c->partner[(int)s->partner[(int)s->to_move]].start);
            return 1;
        }
        return begin_round(c, s);
    case CTX_EVENT:
        if (++s->order_i < P) {
            s->to_move = (int8_t)seat_at(c, s, s->order_i);
            s->phase = NP_EVENT;
            return 0;
        }
        s->ctx = CTX_HELPERS;
        s->order_i = 0;
        s->to_move = s->round_first;
        push(s, EF_HELPER, 1, 0);
        return 1;
    case CTX_HELPERS:
        if (++s->order_i < P) {
            s->to_move = (int8_t)seat_at(c, s, s->order_i);
            push(s, EF_HELPER, 1, 0);
            return 1;
        }
        s->ctx = CTX_DRAW;
        s->order_i = 0;
        return draw_next(c, s);
    case CTX_TURN:
        /* Out of resources: the turn is over and no free action is left to take (before
         * the action, having sold the last one mid-move, the seat passes). */
        if (nk_total(s->drawn[(int)s->to_move]) == 0) {
            if (!s->in_action) s->passed |= (int8_t)(1 << s->to_move);
            return next_turn(c, s, (s->to_move + 1) % P);
        }
        /* Before the action: choose it; after it: free actions until `end turn`. Alone at
         * the table the next turn follows at once with the same free actions (and the
         * once-a-turn square bonuses anew), so there the turn ends with its action. */
        if (s->in_action && P == 1) return next_turn(c, s, s->to_move);
        s->phase = s->in_action ? NP_AFTER : NP_TURN;
        return 0;
    case CTX_CLEANUP:
        return begin_round(c, s);
    case CTX_NPC:
        if (++s->npc <= NK_NPCS) {
            push(s, EF_NPCMOVE, 1, 0);
            push(s, EF_NPCROLL, 1, 0);
            return 1;
        }
        return begin_events(c, s);
    default:
        return 0;
    }
}

void nk_run(const NkConfig *c, NkState *s) {
    for (;;) {
        if (s->phase == NP_OVER) return;
        if (s->sp == 0) {
            if (!resume(c, s)) return;
            continue;
        }
        NkFrame *f = &s->stack[s->sp - 1];
        int p = s->to_move, op = f->op, a = f->a, b = f->b;
        switch (op) {
        case EF_GAIN: {
            int n = b < s->pool[a] ? b : s->pool[a];   /* scarcity: what is left */
            s->pool[a] = (int8_t)(s->pool[a] - n);
            s->bag[p][a] = (int8_t)(s->bag[p][a] + n);
            s->sp--;
            break;
        }
        case EF_COINS:
            s->coins[p] = (int16_t)(s->coins[p] + a);
            s->sp--;
            break;
        case EF_ADJ_COINS:
            s->coins[p] = (int16_t)(s->coins[p] + a * bb_popcount64(c->nbr[(int)s->pos[p]] & s->built));
            s->sp--;
            break;
        case EF_FUN:
        case EF_OISHI: {
            if (--f->a <= 0) s->sp--;
            int8_t *lvl = op == EF_FUN ? &s->fun[p] : &s->oishi[p];
            if (*lvl < 5) {               /* nothing past level 5 */
                (*lvl)++;
                int bonus = op == EF_FUN ? c->fun_die[(int)*lvl] : c->oishi_coins[(int)*lvl];
                if (bonus > 0) push(s, op == EF_FUN ? EF_DIE : EF_COINS, bonus, 0);
            }
            break;
        }
        case EF_HELPER:
            if (a <= 0) { s->sp--; break; }
            if (c->advanced) {                  /* face up or blind: a decision */
                if (!row_count(s->hrow) && !s->deck && !s->n_hbot) { s->sp--; break; }
                s->phase = NP_HPICK;
                return;
            }
            if (!s->deck) { s->sp--; break; }
            s->phase = NP_HELPER;
            return;
        case EF_REFILL_H:
        case EF_REFILL_C: {
            int8_t *row = op == EF_REFILL_H ? s->hrow : s->crow;
            int unknown = op == EF_REFILL_H ? s->deck != 0 : s->cdeck != 0;
            int8_t *n_bot = op == EF_REFILL_H ? &s->n_hbot : &s->n_cbot;
            if (a <= 0 || row_count(row) == 3) { s->sp--; break; }
            if (unknown) { s->phase = op == EF_REFILL_H ? NP_HELPER : NP_CDRAW; return; }
            if (*n_bot) {
                row_fill(row, bottom_take(op == EF_REFILL_H ? s->hbot : s->cbot, n_bot));
                sync_open(c, s);
                if (--f->a <= 0) s->sp--;
            } else {
                s->sp--;
            }
            break;
        }
        case EF_DIE:
            if (a <= 0) { s->sp--; break; }
            s->phase = NP_DIE;
            return;
        case EF_NUKU:
        case EF_NPCROLL:
            s->phase = NP_DIE;
            return;
        case EF_NPCMOVE:
            if (s->npc_steps <= 0) { s->sp--; break; }
            if (npc_walk(c, s)) return;         /* a tie: the player chooses */
            break;
        case EF_MOVE:
            if (a <= 0) { s->sp--; break; }
            s->phase = NP_MOVE;
            return;
        case EF_PLAY:
            if (a <= 0 || !s->hand[p]) { s->sp--; break; }
            s->phase = NP_PLAY;
            return;
        case EF_BUILD:
            if (a <= 0 || !could_build(c, s, p)) { s->sp--; break; }
            s->phase = NP_BUILD;
            return;
        case EF_TAKE:
            if (!cards_available(s) || held_cards(s, p) >= NK_CARD_SLOTS) { s->sp--; break; }
            s->phase = NP_TAKE;
            return;
        default:
            s->sp--;
        }
    }
}

/* ---------- the board ---------- */

static void place_nukumaru(const NkConfig *c, NkState *s, int face) {
    /* From the rolled number, +1 (6 wraps to 1) past every occupied square:
     * a pioneer (NPCs too) or, in Chasing Nukumaru, a cube. */
    for (int k = 0; k < 6; k++) {
        int f = (face + k) % 6, sq = c->nuku_sq[f], occupied = s->nuku_cubes >> f & 1;
        for (int p = 0; p < c->pieces; p++) occupied |= s->pos[p] == sq;
        if (!occupied) { s->nuku = (int8_t)sq; return; }
    }
}

static void push_triggers(const NkConfig *c, NkState *s, int p, int trig, int spot) {
    const NkPartner *pp = &c->partner[(int)s->partner[p]];
    if (pp->trig == trig && (trig != TR_ACTION || (pp->trig_mask >> spot & 1))) push_effects(s, pp->ongoing);
    uint64_t hs = s->played[p] & (trig == TR_ACTION ? c->h_on_action[spot] : c->h_on_catch);
    while (hs) push_effects(s, c->h_eff[bb_pop_lsb64(&hs)]);
}

static void enter_square(const NkConfig *c, NkState *s, int p, int sq) {
    s->pos[p] = (int8_t)sq;
    s->rode = 0;
    if (sq == s->nuku) {                     /* caught! */
        s->coins[p] = (int16_t)(s->coins[p] + c->catch_coins);
        s->start_holder = (int8_t)p;
        s->start_down = 1;
        if (c->solo == SOLO_CHASING) {
            s->nuku_cubes |= (uint8_t)(1u << (c->sq_nuku[sq] - 1));
            if (s->nuku_cubes == 63) {       /* all six occupied: cleared */
                s->cleared = (int8_t)(s->round + 1);
                s->phase = NP_OVER;
                s->to_move = -1;
                s->sp = 0;
                return;
            }
        }
        push_triggers(c, s, p, TR_CATCH, 0);  /* after Nukumaru has moved */
        push(s, EF_NUKU, 1, 0);
        return;
    }
    if ((s->built >> sq & 1) || (s->bonus_used >> sq & 1)) return;
    if (c->sq_kind[sq] == SQ_HELPER) {
        s->bonus_used |= 1ull << sq;
        push(s, EF_HELPER, 1, 0);
    } else if (c->sq_kind[sq] == SQ_COINS) {
        s->bonus_used |= 1ull << sq;
        s->coins[p] = (int16_t)(s->coins[p] + c->sq_coins);
    }
}

/* ---------- actions ---------- */

static void begin_action(const NkConfig *c, NkState *s, int kind, int idx) {
    int p = s->to_move;
    NkCost tmp;
    const NkCost *cost = nk_cost_of(c, s, kind, idx, p, &tmp);
    s->coins[p] = (int16_t)(s->coins[p] - cost->coins);
    s->in_action = 1;
    switch (kind) {
    case PK_SPOT:
        s->used[p] |= (uint16_t)(1u << idx);
        push_triggers(c, s, p, TR_ACTION, idx);
        push_effects(s, c->spot_eff[idx]);
        break;
    case PK_BUILD:
    case PK_EFFECT_BUILD: {
        int sq = s->pos[p];
        if (kind == PK_BUILD) s->used[p] |= (uint16_t)(1u << SPOT_BUILD);
        else if (--s->stack[s->sp - 1].a <= 0) s->sp--;    /* the "build" effect is done */
        s->built |= 1ull << sq;
        s->bld_type[sq] = (int8_t)idx;
        s->bld_owner[sq] = (int8_t)p;
        s->bld_left[idx]--;
        s->cubes[p]++;
        push_triggers(c, s, p, TR_ACTION, SPOT_BUILD);
        push_effects(s, c->bld_eff[idx]);
        break;
    }
    case PK_PARTNER:
        s->used[p] |= (uint16_t)(1u << 10);
        push_effects(s, c->partner[(int)s->partner[p]].spec_eff);
        break;
    default:
        s->used[p] |= (uint16_t)(1u << (11 + idx));
        push_effects(s, c->card_eff[(int)s->card[p][idx]]);
    }
    nk_run(c, s);
}

static void pay(NkState *s, int p, const int8_t *ms) {
    for (int k = 0; k < NK_NRES; k++) {
        s->drawn[p][k] = (int8_t)(s->drawn[p][k] - ms[k]);
        s->spent[p][k] = (int8_t)(s->spent[p][k] + ms[k]);
    }
}

static void choose_action(const NkConfig *c, NkState *s, int kind, int idx) {
    int p = s->to_move;
    NkCost tmp;
    uint64_t opts = nk_pay_options(c, nk_cost_of(c, s, kind, idx, p, &tmp), s->drawn[p]);
    if (opts == 1ull << PAY_FREE) { begin_action(c, s, kind, idx); return; }
    if (bb_popcount64(opts) == 1) {      /* only one way to pay: no decision */
        pay(s, p, c->ms[bb_lsb64(opts)]);
        begin_action(c, s, kind, idx);
        return;
    }
    s->pend_kind = (int8_t)kind;
    s->pend_idx = (int8_t)idx;
    s->phase = NP_PAY;
}

static int free_ok(const NkState *s, int p) {
    /* Free actions: during your own turn, while you still have a resource. */
    return s->ctx == CTX_TURN && nk_total(s->drawn[p]) > 0;
}

static void free_move(const NkConfig *c, NkState *s) {
    if (s->phase == NP_MOVE) s->stack[s->sp - 1].a++;
    else push(s, EF_MOVE, 1, 0);
    nk_run(c, s);
}

/* ---------- vtable: legal actions ---------- */

/* The round card's "may" is a choice only when taking it can change something: not a gain
 * from an empty pool, a Helper from an empty deck (and, advanced, an empty row), a track
 * step past level 5 (all public). */
static int event_does_something(const NkConfig *c, const NkState *s, int p) {
    const NkEff *e = c->round_eff[(int)s->round_card[(int)s->round]];
    for (int i = 0; i < NK_NEFF; i++) {
        switch (e[i].op) {
        case EF_NONE: break;
        case EF_GAIN: if (s->pool[(int)e[i].a] > 0) return 1; break;
        case EF_HELPER: if (s->deck || s->n_hbot || (c->advanced && row_count(s->hrow))) return 1; break;
        case EF_FUN: if (s->fun[p] < 5) return 1; break;
        case EF_OISHI: if (s->oishi[p] < 5) return 1; break;
        default: return 1;
        }
    }
    return 0;
}

int nk_current_player(const BLGame *g, const void *vst) {
    const NkState *s = CST(vst);
    switch (s->phase) {
    case NP_SETUP_ROUND: case NP_SETUP_PARTNER: case NP_DIE: case NP_HELPER: case NP_DRAW: case NP_CDRAW:
        return BL_CHANCE;
    case NP_OVER:
        return BL_TERMINAL;
    default:
        return s->to_move;
    }
}

static int emit_free(const NkState *s, int p, int32_t *out, int n) {
    if (!free_ok(s, p)) return n;
    for (uint64_t h = s->hand[p]; h;) out[n++] = NA_DISCARD + bb_pop_lsb64(&h);
    if (s->coins[p] >= 3) out[n++] = NA_COINMOVE;
    for (int k = 0; k < NK_NRES; k++)
        if (s->drawn[p][k] > 0) out[n++] = NA_SELL + k;
    return n;
}

static int emit_carriage(const NkConfig *c, const NkState *s, int p, int32_t *out, int n) {
    if (s->ctx != CTX_TURN || s->rode || !(c->carriage >> s->pos[p] & 1)) return n;
    for (uint64_t m = c->carriage & ~(1ull << s->pos[p]); m;) out[n++] = NA_CARRIAGE + bb_pop_lsb64(&m);
    return n;
}

int nk_legal_actions(const BLGame *g, const void *vst, int32_t *out) {
    const NkConfig *c = NK_CFG(g);
    const NkState *s = CST(vst);
    int n = 0, p = s->to_move;
    switch (s->phase) {
    case NP_SETUP_ROUND:
        for (int k = 0; k < NK_NROUND; k++) {
            int dealt = 0;
            for (int i = 0; i < s->n_round_cards; i++) dealt |= s->round_card[i] == k;
            if (!dealt) out[n++] = NA_ROUNDCARD + k;
        }
        return n;
    case NP_SETUP_PARTNER:
        for (int k = 0; k < NK_NPART; k++) {
            int dealt = 0;
            for (int i = 0; i < s->n_partners; i++) dealt |= s->partner[i] == k;
            if (!dealt) out[n++] = NA_PARTNERDEAL + k;
        }
        return n;
    case NP_DIE:
        for (int f = 0; f < 6; f++) out[n++] = NA_DIE + f;
        return n;
    case NP_DRAW:
        for (int k = 0; k < NK_NRES; k++)
            if (s->bag[p][k] > 0) out[n++] = NA_DRAWRES + k;
        return n;
    case NP_HELPER:
        for (uint64_t d = s->deck; d;) out[n++] = NA_DRAWHELPER + bb_pop_lsb64(&d);
        return n;
    case NP_EVENT:
        if (event_does_something(c, s, p)) out[n++] = NA_ACCEPT;
        out[n++] = NA_DECLINE;
        return n;
    case NP_TURN: {
        uint16_t used = s->used[p];
        for (int k = 0; k < SPOT_BUILD; k++) {
            if (used >> k & 1 || !affordable(c, s, PK_SPOT, k, p)) continue;
            if (k == SPOT_ADD && (!cards_available(s) || held_cards(s, p) >= NK_CARD_SLOTS)) continue;
            out[n++] = NA_SPOT + k;
        }
        if (!(used >> SPOT_BUILD & 1)) n = emit_buildings(c, s, p, out, n);
        if (!(used >> 10 & 1) && affordable(c, s, PK_PARTNER, 0, p)) out[n++] = NA_PARTNER;
        for (int j = 0; j < NK_CARD_SLOTS; j++)
            if (s->card[p][j] >= 0 && !(used >> (11 + j) & 1) && affordable(c, s, PK_CARD, j, p))
                out[n++] = NA_CARD + j;
        out[n++] = NA_PASS;
        n = emit_free(s, p, out, n);
        return emit_carriage(c, s, p, out, n);
    }
    case NP_PAY: {
        NkCost tmp;
        uint64_t opts = nk_pay_options(c, nk_cost_of(c, s, s->pend_kind, s->pend_idx, p, &tmp), s->drawn[p]);
        while (opts) out[n++] = NA_PAY + bb_pop_lsb64(&opts);
        return n;
    }
    case NP_MOVE:
        n = emit_free(s, p, out, n);
        for (uint64_t m = c->nbr[(int)s->pos[p]]; m;) out[n++] = NA_STEP + bb_pop_lsb64(&m);
        n = emit_carriage(c, s, p, out, n);
        out[n++] = NA_STOP;
        return n;
    case NP_PLAY:
        n = emit_free(s, p, out, n);
        n = emit_carriage(c, s, p, out, n);
        out[n++] = NA_STOP;
        for (uint64_t h = s->hand[p]; h;) out[n++] = NA_PLAY + bb_pop_lsb64(&h);
        return n;
    case NP_BUILD:                          /* ascending: buildings, free actions, rides, none */
        n = emit_buildings(c, s, p, out, n);
        n = emit_free(s, p, out, n);
        n = emit_carriage(c, s, p, out, n);
        out[n++] = NA_STOP;
        return n;
    case NP_AFTER:                          /* free actions, rides, end the turn */
        n = emit_free(s, p, out, n);
        n = emit_carriage(c, s, p, out, n);
        out[n++] = NA_END;
        return n;
    case NP_TAKE:
        for (int k = 0; k < NK_NCARD; k++)
            if (s->cards_open >> k & 1) out[n++] = NA_TAKE + k;
        if (c->advanced && (s->cdeck || s->n_cbot)) out[n++] = NA_BLIND;
        return n;
    case NP_HPICK: {
        if (s->deck || s->n_hbot) out[n++] = NA_BLIND;
        uint64_t row = 0;
        for (int i = 0; i < 3; i++)
            if (s->hrow[i] >= 0) row |= 1ull << s->hrow[i];
        while (row) out[n++] = NA_PICKH + bb_pop_lsb64(&row);
        return n;
    }
    case NP_CDRAW:
        for (int k = 0; k < NK_NCARD; k++)
            if (s->cdeck >> k & 1) out[n++] = NA_DRAWCARD + k;
        return n;
    case NP_ROUTE: {
        NkRoute r[NK_MAXROUTES];
        int tied[NK_MAXROUTES];
        int nt = best_routes(c, s, r, tied);
        for (int i = 0; i < nt; i++) out[n++] = NA_ROUTE + i;
        return n;
    }
    default:
        return 0;
    }
}

/* ---------- vtable: apply ---------- */

void nk_apply(const BLGame *g, void *vst, int32_t a) {
    const NkConfig *c = NK_CFG(g);
    NkState *s = ST(vst);
    int p = s->to_move;
    if (a == NA_END) {
        if (next_turn(c, s, (p + 1) % c->players)) nk_run(c, s);
    } else if (a >= NA_ROUTE) {
        NkRoute r[NK_MAXROUTES];
        int tied[NK_MAXROUTES];
        best_routes(c, s, r, tied);
        apply_route(c, s, &r[tied[a - NA_ROUTE]]);
        nk_run(c, s);
    } else if (a >= NA_DRAWCARD) {
        int k = a - NA_DRAWCARD;
        s->cdeck &= (uint16_t)~(1u << k);
        if (s->stack[s->sp - 1].op == EF_REFILL_C) {
            row_fill(s->crow, k);
            sync_open(c, s);
            if (--s->stack[s->sp - 1].a <= 0) s->sp--;
        } else {                                  /* a blind Add an Action */
            give_card(s, p, k);
            s->sp--;
        }
        nk_run(c, s);
    } else if (a >= NA_PICKH) {
        int h = a - NA_PICKH;
        row_take(s->hrow, h);
        s->hand[p] |= 1ull << h;
        if (--s->stack[s->sp - 1].a <= 0) s->sp--;
        push(s, EF_REFILL_H, 1, 0);
        nk_run(c, s);
    } else if (a == NA_BLIND) {
        if (s->phase == NP_HPICK) {
            if (s->deck) { s->phase = NP_HELPER; return; }
            s->hand[p] |= 1ull << bottom_take(s->hbot, &s->n_hbot);
            if (--s->stack[s->sp - 1].a <= 0) s->sp--;
        } else {
            if (s->cdeck) { s->phase = NP_CDRAW; return; }
            give_card(s, p, bottom_take(s->cbot, &s->n_cbot));
            s->sp--;
        }
        nk_run(c, s);
    } else if (a >= NA_DRAWHELPER) {
        int h = a - NA_DRAWHELPER;
        s->deck &= ~(1ull << h);
        if (s->stack[s->sp - 1].op == EF_REFILL_H) row_fill(s->hrow, h);
        else s->hand[p] |= 1ull << h;
        if (--s->stack[s->sp - 1].a <= 0) s->sp--;
        nk_run(c, s);
    } else if (a >= NA_DRAWRES) {
        int k = a - NA_DRAWRES;
        s->bag[p][k]--;
        s->drawn[p][k]++;
        if (--s->draw_left <= 0 || nk_total(s->bag[p]) == 0) {
            s->order_i++;
            if (draw_next(c, s)) nk_run(c, s);
        }
    } else if (a >= NA_DIE) {
        int face = a - NA_DIE;
        NkFrame *f = &s->stack[s->sp - 1];
        if (f->op == EF_NUKU) {
            s->sp--;
            place_nukumaru(c, s, face);
        } else if (f->op == EF_NPCROLL) {        /* 1-3: 2 squares, 4-5: 3, 6: 4 */
            s->sp--;
            s->npc_steps = (int8_t)(face < 3 ? 2 : face < 5 ? 3 : 4);
        } else {
            if (--f->a <= 0) s->sp--;
            push_effects(s, c->partner[(int)s->partner[p]].die[face]);
        }
        nk_run(c, s);
    } else if (a >= NA_PARTNERDEAL) {
        s->partner[(int)s->n_partners++] = (int8_t)(a - NA_PARTNERDEAL);
        if (s->n_partners == c->players) {
            s->ctx = CTX_SETUP_NUKU;
            push(s, EF_NUKU, 1, 0);
            if (c->advanced) {                    /* 3 face-up Helpers, 3 action cards */
                push(s, EF_REFILL_C, 3, 0);
                push(s, EF_REFILL_H, 3, 0);
            }
            nk_run(c, s);
        }
    } else if (a >= NA_ROUNDCARD) {
        s->round_card[(int)s->n_round_cards++] = (int8_t)(a - NA_ROUNDCARD);
        if (s->n_round_cards == NK_ROUNDS) s->phase = NP_SETUP_PARTNER;
    } else if (a == NA_DECLINE) {
        nk_run(c, s);
    } else if (a == NA_ACCEPT) {
        push_effects(s, c->round_eff[(int)s->round_card[(int)s->round]]);
        nk_run(c, s);
    } else if (a >= NA_PAY) {
        pay(s, p, c->ms[a - NA_PAY]);
        begin_action(c, s, s->pend_kind, s->pend_idx);
    } else if (a >= NA_TAKE) {
        int k = a - NA_TAKE;
        give_card(s, p, k);
        s->sp--;
        if (c->advanced) {
            row_take(s->crow, k);
            sync_open(c, s);
            push(s, EF_REFILL_C, 1, 0);
        } else {
            s->cards_open &= (uint16_t)~(1u << k);
        }
        nk_run(c, s);
    } else if (a >= NA_PLAY) {
        int h = a - NA_PLAY;
        s->hand[p] &= ~(1ull << h);
        s->played[p] |= 1ull << h;
        if (--s->stack[s->sp - 1].a <= 0) s->sp--;
        if (c->h_trig[h] == TR_PLAYED) push_effects(s, c->h_eff[h]);
        nk_run(c, s);
    } else if (a == NA_STOP) {
        s->sp--;
        nk_run(c, s);
    } else if (a >= NA_CARRIAGE) {
        s->pos[p] = (int8_t)(a - NA_CARRIAGE);
        s->rode = 1;
    } else if (a >= NA_STEP) {
        if (--s->stack[s->sp - 1].a <= 0) s->sp--;
        enter_square(c, s, p, a - NA_STEP);
        nk_run(c, s);
    } else if (a >= NA_SELL) {
        int k = a - NA_SELL;
        s->drawn[p][k]--;
        s->spent[p][k]++;
        s->coins[p]++;
        /* Out of resources before acting: forced to pass; after the action: the turn
         * ends (no free action left to take). */
        if ((s->phase == NP_TURN || s->phase == NP_AFTER) && nk_total(s->drawn[p]) == 0) {
            if (s->phase == NP_TURN) s->passed |= (int8_t)(1 << p);
            if (next_turn(c, s, (p + 1) % c->players)) nk_run(c, s);
        }
    } else if (a == NA_COINMOVE) {
        s->coins[p] = (int16_t)(s->coins[p] - 3);
        free_move(c, s);
    } else if (a >= NA_DISCARD && a < NA_COINMOVE) {
        int h = a - NA_DISCARD;
        s->hand[p] &= ~(1ull << h);
        s->discard |= 1ull << h;
        free_move(c, s);
    } else if (a == NA_PASS) {
        s->passed |= (int8_t)(1 << p);
        if (next_turn(c, s, (p + 1) % c->players)) nk_run(c, s);
    } else if (a >= NA_CARD) {
        choose_action(c, s, PK_CARD, a - NA_CARD);
    } else if (a == NA_PARTNER) {
        choose_action(c, s, PK_PARTNER, 0);
    } else if (a >= NA_BUILD) {
        choose_action(c, s, s->phase == NP_BUILD ? PK_EFFECT_BUILD : PK_BUILD, a - NA_BUILD);
    } else {
        choose_action(c, s, PK_SPOT, a - NA_SPOT);
    }
}

/* ---------- vtable: chance ---------- */

int nk_chance_outcomes(const BLGame *g, const void *vst, int32_t *acts, double *probs) {
    const NkState *s = CST(vst);
    int n = nk_legal_actions(g, vst, acts);
    if (s->phase == NP_DRAW) {
        const int8_t *bag = s->bag[(int)s->to_move];
        double tot = nk_total(bag);
        for (int i = 0; i < n; i++) probs[i] = bag[acts[i] - NA_DRAWRES] / tot;
    } else {
        for (int i = 0; i < n; i++) probs[i] = 1.0 / n;
    }
    return n;
}

int32_t nk_sample_chance(const BLGame *g, void *vst) {
    NkState *s = ST(vst);
    if (s->phase == NP_DRAW) {
        const int8_t *bag = s->bag[(int)s->to_move];
        int k = (int)bl_rng_below(&s->rng, (uint32_t)nk_total(bag));
        for (int r = 0; r < NK_NRES; r++) {
            if (k < bag[r]) return NA_DRAWRES + r;
            k -= bag[r];
        }
    }
    if (s->phase == NP_HELPER) {
        uint64_t d = s->deck;
        int k = (int)bl_rng_below(&s->rng, (uint32_t)bb_popcount64(d));
        while (k-- > 0) d &= d - 1;
        return NA_DRAWHELPER + bb_lsb64(d);
    }
    int32_t acts[NK_NHELP];
    int n = nk_legal_actions(g, vst, acts);
    return acts[bl_rng_below(&s->rng, (uint32_t)n)];
}

/* ---------- determinization ---------- */

int nk_determinize(const BLGame *g, void *vst, int o, BLRng *r) {
    const NkConfig *c = NK_CFG(g);
    NkState *s = ST(vst);
    /* What o cannot see: every Helper that is neither in o's hand, nor played,
     * nor discarded, nor face up, nor known under the deck (all public) - the
     * others' hands and the deck together.
     * It is computed from o's knowledge only, then dealt again at random. */
    uint64_t known = s->hand[o] | s->discard;
    for (int p = 0; p < c->players; p++) known |= s->played[p];
    for (int i = 0; i < 3; i++)
        if (s->hrow[i] >= 0) known |= 1ull << s->hrow[i];
    for (int i = 0; i < s->n_hbot; i++) known |= 1ull << s->hbot[i];
    uint64_t unknown = ((1ull << NK_NHELP) - 1) & ~known;
    int8_t ids[NK_NHELP];
    int n = 0;
    for (uint64_t x = unknown; x;) ids[n++] = (int8_t)bb_pop_lsb64(&x);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)bl_rng_below(r, (uint32_t)(i + 1));
        int8_t t = ids[i]; ids[i] = ids[j]; ids[j] = t;
    }
    int at = 0;
    for (int p = 0; p < c->players; p++) {
        if (p == o) continue;
        int k = bb_popcount64(s->hand[p]);
        s->hand[p] = 0;
        while (k-- > 0) s->hand[p] |= 1ull << ids[at++];
    }
    s->deck = 0;
    while (at < n) s->deck |= 1ull << ids[at++];
    bl_rng_seed(&s->rng, bl_rng_next(r));
    return 0;                         /* always possible: hand sizes are the only constraint */
}

const BLGameVTable bl_nukumi_vtable = {
    "nukumi",
    nk_configure,
    nk_init,
    nk_current_player,
    nk_legal_actions,
    nk_apply,
    nk_returns,
    nk_chance_outcomes,
    nk_sample_chance,
    nk_determinize,
    nk_evaluate,
    nk_action_to_string,
    nk_observe_json,
    nk_setup,
    nk_rollout_action,
    nk_feature_size,
    nk_features,
};
