/* Kitsu: move notation, the JSON observation (what a seat knows: its own hand,
 * everything played face up, what it saw in exchanges and recoveries, the
 * colour voids a Black Kitsune showed) and determinization (the deals of the
 * unseen cards that agree with all of that), plus the two entry points of
 * inference from play (kitsu_set_hand, kitsu_world_hand). */
#include <stdio.h>
#include <string.h>
#include "kitsu.h"
#include "../common/jsonw.h"

#define CFG(g) ((const KitsuConfig *)(g)->config)
#define ST(p) ((KitsuState *)(p))
#define CST(p) ((const KitsuState *)(p))

const char *const K_TYPE_NAME[K_NTYPES] = {
    "B1", "B2", "B3", "B4", "B5", "B6", "O1", "O2", "O3", "O4", "O5", "O6",
    "White", "Black", "Katana"};
const char *const K_TOKEN_NAME[K_NTOKENS] = {"+3", "no-advance", "hidden", "recover", "invert"};
const char *const K_CLAN_NAME[2] = {"blue", "orange"};

/* ---------- text ---------- */

int kitsu_action_to_string(const BLGame *g, const void *vst, int32_t a, char *buf, int cap) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = CST(vst);
    if (a >= KA_PLAY && a < KA_PLAY_TOKEN) return snprintf(buf, cap, "play %s", K_TYPE_NAME[a - KA_PLAY]);
    if (a >= KA_PLAY_TOKEN && a < KA_GIVE) {
        int k = token_of_seat(s, s->to_move);
        return snprintf(buf, cap, "play %s with %s", K_TYPE_NAME[a - KA_PLAY_TOKEN], k >= 0 ? K_TOKEN_NAME[k] : "token");
    }
    if (a >= KA_GIVE && a < KA_SIDE) return snprintf(buf, cap, "give %s", K_TYPE_NAME[a - KA_GIVE]);
    if (a >= KA_SIDE && a < KA_KATANA) return snprintf(buf, cap, "+3 to %s", K_CLAN_NAME[a - KA_SIDE]);
    if (a >= KA_KATANA && a < KA_RECOVER) {
        int i = a - KA_KATANA;
        if (i < s->n_played)
            return snprintf(buf, cap, "katana #%d P%d %s", i + 1, s->trick_seat[i], K_TYPE_NAME[(int)c->type_of[(int)s->trick_card[i]]]);
        return snprintf(buf, cap, "katana #%d", i + 1);
    }
    if (a >= KA_RECOVER && a < KA_TOKEN) return snprintf(buf, cap, "recover %s", K_TYPE_NAME[a - KA_RECOVER]);
    if (a >= KA_TOKEN && a < KA_SEAT) return snprintf(buf, cap, "take %s", K_TOKEN_NAME[a - KA_TOKEN]);
    if (a >= KA_SEAT && a < KA_DEAL) {
        int seat = a - KA_SEAT;
        if (s->phase == KP_TOKEN_SEAT) return snprintf(buf, cap, "token to P%d", seat);
        if (s->phase == KP_FIRST_LEADER) return snprintf(buf, cap, "first leader P%d", seat);
        return snprintf(buf, cap, "leader P%d", seat);
    }
    if (a >= KA_DEAL && a < KA_NUM)
        return snprintf(buf, cap, "%s %s to P%d", s->deal_refill ? "draw" : "deal", K_TYPE_NAME[a - KA_DEAL], s->deal_to);
    return snprintf(buf, cap, "action %d", a);
}

static void jw_cards(BLJw *w, const KitsuConfig *c, uint32_t set) {
    bl_jw(w, "[");
    int first = 1;
    for (uint32_t m = set; m;) {
        int id = bb_pop_lsb32(&m);
        bl_jw(w, "%s\"%s\"", first ? "" : ",", K_TYPE_NAME[(int)c->type_of[id]]);
        first = 0;
    }
    bl_jw(w, "]");
}
static void jw_seat_or_null(BLJw *w, int seat) {
    if (seat >= 0) bl_jw(w, "%d", seat); else bl_jw(w, "null");
}

static const char *const PHASE_NAME[] = {"first_leader", "deal", "exchange", "play", "plus3_side",
                                         "recover", "katana", "token_pick", "token_seat", "round_leader", "over"};

int kitsu_observe_json(const BLGame *g, const void *vst, int v, char *buf, int cap) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = CST(vst);
    BLJw w = {buf, cap, 0};
    int P = c->players, full = v < 0;
    int cp = kitsu_current_player(g, vst);
    bl_jw(&w, "{\"game\":\"kitsu\",\"players\":%d,\"viewer\":", P);
    jw_seat_or_null(&w, v);
    bl_jw(&w, ",\"track_length\":%d,\"phase\":\"%s\",\"current_player\":%d,\"round\":%d,\"deal\":%d,\"tricks\":%d",
       c->track_length, PHASE_NAME[(int)s->phase], cp, s->round, s->deal_no, s->trick_no);
    bl_jw(&w, ",\"pawns\":[%d,%d],\"rounds_won\":[%d,%d],\"leader\":%d,\"clans\":[", s->pawn[0], s->pawn[1],
       s->rounds_won[0], s->rounds_won[1], s->leader);
    for (int i = 0; i < P; i++) bl_jw(&w, "%s\"%s\"", i ? "," : "", K_CLAN_NAME[clan_of(i)]);
    bl_jw(&w, "],\"winner\":");
    if (s->winner >= 0) bl_jw(&w, "\"%s\"", K_CLAN_NAME[(int)s->winner]); else bl_jw(&w, "null");
    bl_jw(&w, ",\"hand_sizes\":[");
    for (int i = 0; i < P; i++) bl_jw(&w, "%s%d", i ? "," : "", bb_popcount32(s->hand[i]));
    bl_jw(&w, "],\"hands\":[");
    for (int i = 0; i < P; i++) {
        if (i) bl_jw(&w, ",");
        if (full || i == v) jw_cards(&w, c, s->hand[i]); else bl_jw(&w, "null");
    }
    bl_jw(&w, "],\"stock_size\":%d,\"stock\":", bb_popcount32(s->stock));
    if (full) jw_cards(&w, c, s->stock); else bl_jw(&w, "null");
    bl_jw(&w, ",\"discard\":");
    jw_cards(&w, c, s->discard);
    bl_jw(&w, ",\"trick\":[");
    for (int i = 0; i < s->n_played; i++) {
        int hid = s->trick_flags[i] & KF_HIDDEN, seat = s->trick_seat[i];
        bl_jw(&w, "%s{\"seat\":%d,\"card\":", i ? "," : "", seat);
        if (!hid || full || seat == v) bl_jw(&w, "\"%s\"", K_TYPE_NAME[(int)c->type_of[(int)s->trick_card[i]]]);
        else bl_jw(&w, "null");
        bl_jw(&w, ",\"hidden\":%s,\"destroyed\":%s}", hid ? "true" : "false",
           (s->trick_flags[i] & KF_DESTROYED) ? "true" : "false");
    }
    bl_jw(&w, "],\"last_trick\":{\"cards\":[");
    for (int i = 0; i < s->prev_n; i++)
        bl_jw(&w, "%s{\"seat\":%d,\"card\":\"%s\",\"hidden\":%s,\"destroyed\":%s}", i ? "," : "", s->prev_seat[i],
           K_TYPE_NAME[(int)c->type_of[(int)s->prev_card[i]]], (s->prev_flags[i] & KF_HIDDEN) ? "true" : "false",
           (s->prev_flags[i] & KF_DESTROYED) ? "true" : "false");
    bl_jw(&w, "],\"winner\":");
    if (s->prev_winner >= 0) bl_jw(&w, "\"%s\"", K_CLAN_NAME[(int)s->prev_winner]); else bl_jw(&w, "null");
    bl_jw(&w, ",\"moved\":%d},\"tokens\":{", s->prev_moved);
    for (int k = 0; k < K_NTOKENS; k++) {
        bl_jw(&w, "%s\"%s\":{\"holder\":", k ? "," : "", K_TOKEN_NAME[k]);
        jw_seat_or_null(&w, s->token_holder[k]);
        bl_jw(&w, ",\"used\":%s,\"in_trick\":%s}", (s->tokens_used >> k & 1) ? "true" : "false",
           (s->tokens_played >> k & 1) ? "true" : "false");
    }
    bl_jw(&w, "},\"plus3_side\":");
    if (s->plus3_side >= 0) bl_jw(&w, "\"%s\"", K_CLAN_NAME[(int)s->plus3_side]); else bl_jw(&w, "null");
    bl_jw(&w, ",\"forced\":");
    if (s->forced_seat >= 0) bl_jw(&w, "{\"seat\":%d,\"colour\":\"%s\"}", s->forced_seat, K_CLAN_NAME[(int)s->forced_colour]);
    else bl_jw(&w, "null");
    /* Exchange: what was put down is private to its owner until taken. */
    bl_jw(&w, ",\"exchange\":[");
    for (int i = 0; i < P; i++) {
        if (i) bl_jw(&w, ",");
        int show = full || i == v, ex = s->exchange_card[i];
        bl_jw(&w, "{\"put_down\":%s,\"card\":", ex >= 0 ? "true" : "false");
        if (show && ex >= 0) bl_jw(&w, "\"%s\"", K_TYPE_NAME[(int)c->type_of[ex]]); else bl_jw(&w, "null");
        int showgr = full || i == v;
        bl_jw(&w, ",\"gave\":");
        if (showgr && s->gave[i] >= 0) bl_jw(&w, "\"%s\"", K_TYPE_NAME[(int)s->gave[i]]); else bl_jw(&w, "null");
        bl_jw(&w, ",\"received\":");
        if (showgr && s->recv[i] >= 0) bl_jw(&w, "\"%s\"", K_TYPE_NAME[(int)s->recv[i]]); else bl_jw(&w, "null");
        bl_jw(&w, "}");
    }
    bl_jw(&w, "],\"known\":");
    /* Cards the viewer knows to be in other hands (from exchanges, recoveries). */
    if (full) bl_jw(&w, "null");
    else {
        bl_jw(&w, "[");
        for (int p = 0; p < P; p++) {
            if (p) bl_jw(&w, ",");
            bl_jw(&w, "[");
            int first = 1;
            for (int t = 0; t < K_NTYPES; t++)
                for (int k = 0; k < (p == v ? 0 : s->known[v][p][t]); k++) {
                    bl_jw(&w, "%s\"%s\"", first ? "" : ",", K_TYPE_NAME[t]);
                    first = 0;
                }
            bl_jw(&w, "]");
        }
        bl_jw(&w, "]");
    }
    bl_jw(&w, ",\"colour_caps\":[");
    for (int p = 0; p < P; p++) {
        bl_jw(&w, "%s[", p ? "," : "");
        for (int col = 0; col < 2; col++) {
            if (col) bl_jw(&w, ",");
            if (s->colour_cap[p][col] == NO_CAP) bl_jw(&w, "null"); else bl_jw(&w, "%d", s->colour_cap[p][col]);
        }
        bl_jw(&w, "]");
    }
    bl_jw(&w, "],\"recover_seat\":");
    jw_seat_or_null(&w, s->recover_seat);
    /* A token being gained: the clan, and the token once picked (in the open). */
    bl_jw(&w, ",\"gain\":");
    if (s->phase == KP_TOKEN_PICK || s->phase == KP_TOKEN_SEAT) {
        bl_jw(&w, "{\"clan\":\"%s\",\"token\":", K_CLAN_NAME[(int)s->gain_clan]);
        if (s->phase == KP_TOKEN_SEAT) bl_jw(&w, "\"%s\"}", K_TOKEN_NAME[(int)s->gain_token]); else bl_jw(&w, "null}");
    } else bl_jw(&w, "null");
    /* Dealing: who gets the next card, how many are left to deal in this step. */
    bl_jw(&w, ",\"dealing\":");
    if (s->phase == KP_DEAL)
        bl_jw(&w, "{\"to\":%d,\"left\":%d,\"refill\":%s}", s->deal_to, s->deal_left, s->deal_refill ? "true" : "false");
    else bl_jw(&w, "null");
    bl_jw(&w, "}");
    return w.len < cap ? w.len : -1;
}

/* ---------- determinization ----------
 *
 * determinize(o) deals every card o cannot see — the other hands, the cards
 * others put down in an exchange still in progress, another seat's hidden
 * card in the trick, the stock — uniformly among the deals that agree with
 * everything o knows:
 *   - hand sizes (public);
 *   - known[o][p]: cards o knows p holds (hand or hidden trick card); these
 *     are physical cards o saw go there, so they are placed first;
 *   - colour_cap[p][c]: at most that many colour-c numerals in p's hand and
 *     hidden trick card (Black Kitsune voids);
 *   - the hidden trick card (at most one: there is one Hidden-card token) is
 *     neither Katana nor Black Kitsune, and if its owner was forced to a
 *     colour by a Black Kitsune it has that colour unless the owner had none
 *     (then the rest of its hand has none).
 * Only the class of a free card matters to these constraints (blue numeral,
 * orange numeral, special), so the deal is counted exactly: a small dynamic
 * programme over the class counts of the capped seats (uncapped seats, the
 * exchange cards and the stock form one unconstrained rest), then the cards of
 * each class are shuffled. The sampler never dead-ends: every information set
 * reached by play contains the true deal, so the count is never zero (the
 * tests check that the true deal keeps every constraint above).
 *
 * The result depends only on what o knows and on rng: the unknown cards are
 * taken in ascending id order (= ascending type order), every choice is made
 * from counts o knows, and the state's own RNG is reseeded from rng. */

enum { KCL_BLUE = KC_BLUE, KCL_ORANGE = KC_ORANGE, KCL_SPECIAL = 2, K_NCLASS = 3 };
#define K_UNCAPPED 99
/* (blue + 1) x (orange + 1) free-card counts, blue + orange <= 32: at most 17 x 17. */
#define K_PLANE ((K_MAX_CARDS / 2 + 1) * (K_MAX_CARDS / 2 + 1))

static inline int class_of_type(int t) { return is_numeral(t) ? colour_of_type(t) : KCL_SPECIAL; }

/* The free (not pre-placed) part of a deal, as the counting sees it. */
typedef struct {
    int need[K_MAX_PLAYERS];      /* free cards each seat takes (0 for the observer) */
    int cap[K_MAX_PLAYERS][2];    /* most free numerals of each colour (K_UNCAPPED: any) */
    int n[K_NCLASS];              /* free cards of each class */
    int nbin;                     /* exchange cards put down + stock: unconstrained */
} DealShape;

static int capped_seats(const DealShape *d, int P, int *lv) {
    int n = 0;
    for (int p = 0; p < P; p++)
        if (d->cap[p][0] < K_UNCAPPED || d->cap[p][1] < K_UNCAPPED) lv[n++] = p;
    return n;
}

/* Ways to split the free cards of the rest group (uncapped seats and the bin):
 * M! / (prod need! * nbin!), i.e. M! * rest_inv. */
static double rest_inv(const DealShape *d, int P, const double *inv) {
    double w = inv[d->nbin];
    for (int p = 0; p < P; p++)
        if (!(d->cap[p][0] < K_UNCAPPED || d->cap[p][1] < K_UNCAPPED)) w *= inv[d->need[p]];
    return w;
}

/* Capped seat p, holding (b, o) blue/orange left of which `spec` specials
 * remain: weight of taking (bb, oo, need - bb - oo). 0 if not allowed. */
static inline double seat_term(const DealShape *d, int p, int bb, int oo, int spec_left, const double *inv) {
    int ss = d->need[p] - bb - oo;
    if (ss < 0 || ss > spec_left || bb > d->cap[p][0] || oo > d->cap[p][1]) return 0.0;
    return inv[bb] * inv[oo] * inv[ss];
}

/* F[j][b][o]: weight of dealing b blue, o orange and the matching specials
 * to capped seats lv[j..] and the rest group. Returns the number of physical
 * deals of the free cards (0: no deal satisfies the constraints). */
static double count_deals(const DealShape *d, int P, const int *lv, int nlv, double *F,
                          const double *fact, const double *inv) {
    int NB = d->n[0], NO = d->n[1], W = NO + 1, plane = (NB + 1) * W;
    int M = d->nbin, T[K_MAX_PLAYERS + 1];
    for (int p = 0; p < P; p++)
        if (!(d->cap[p][0] < K_UNCAPPED || d->cap[p][1] < K_UNCAPPED)) M += d->need[p];
    T[nlv] = M;
    for (int j = nlv - 1; j >= 0; j--) T[j] = T[j + 1] + d->need[lv[j]];
    if (M < 0 || T[0] != NB + NO + d->n[2]) return 0.0;
    double *Fl = F + (size_t)nlv * plane;
    for (int b = 0; b <= NB; b++)
        for (int o = 0; o <= NO; o++) {
            int s = M - b - o;
            Fl[b * W + o] = s >= 0 ? inv[b] * inv[o] * inv[s] : 0.0;
        }
    for (int j = nlv - 1; j >= 0; j--) {
        int p = lv[j];
        double *Fj = F + (size_t)j * plane, *Fn = Fj + plane;
        for (int b = 0; b <= NB; b++)
            for (int o = 0; o <= NO; o++) {
                int spec = T[j] - b - o;
                double sum = 0.0;
                if (spec >= 0)
                    for (int bb = 0; bb <= b && bb <= d->need[p]; bb++)
                        for (int oo = 0; oo <= o && bb + oo <= d->need[p]; oo++) {
                            double t = seat_term(d, p, bb, oo, spec, inv);
                            if (t > 0.0) sum += t * Fn[(b - bb) * W + (o - oo)];
                        }
                Fj[b * W + o] = sum;
            }
    }
    return fact[NB] * fact[NO] * fact[d->n[2]] * F[NB * W + NO] * fact[M] * rest_inv(d, P, inv);
}

static double deal_count(const DealShape *d, int P, const double *fact, const double *inv) {
    int lv[K_MAX_PLAYERS], nlv = capped_seats(d, P, lv);
    if (nlv == 0) {
        int N = d->n[0] + d->n[1] + d->n[2], M = d->nbin;
        for (int p = 0; p < P; p++) M += d->need[p];
        return M == N ? fact[N] * rest_inv(d, P, inv) : 0.0;
    }
    double F[(K_MAX_PLAYERS + 1) * K_PLANE];
    return count_deals(d, P, lv, nlv, F, fact, inv);
}

void kitsu_shuffle_ids(int8_t *ids, int n, BLRng *r) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)bl_rng_below(r, (uint32_t)(i + 1));
        int8_t t = ids[i]; ids[i] = ids[j]; ids[j] = t;
    }
}
static int ids_of(uint32_t set, int8_t *out) {
    int n = 0;
    while (set) out[n++] = (int8_t)bb_pop_lsb32(&set);
    return n;
}
/* Index picked with probability w[i] / total. */
static int pick_weighted(const double *w, int n, double total, BLRng *r) {
    double u = bl_rng_double(r) * total;
    int last = -1;
    for (int i = 0; i < n; i++) {
        if (w[i] <= 0.0) continue;
        last = i;
        if (u < w[i]) return i;
        u -= w[i];
    }
    return last;  /* rounding at the top end */
}

/* Deal the free cards `pool` per shape d: capped seats get class counts drawn
 * from the exact count, the rest group is a uniform shuffle. Free cards of
 * seat p are OR-ed into hand[p]; the bin's cards are returned in *bin_ids.
 * -1 if no deal fits (the caller has checked there is one). */
static int deal_free(const KitsuConfig *c, const DealShape *d, int P, int o, uint32_t pool,
                      uint32_t *hand, int8_t *bin_ids, BLRng *r, const double *fact, const double *inv) {
    int lv[K_MAX_PLAYERS], nlv = capped_seats(d, P, lv);
    int8_t rest[K_MAX_CARDS];
    int nrest = 0;
    if (nlv > 0) {
        double F[(K_MAX_PLAYERS + 1) * K_PLANE];
        count_deals(d, P, lv, nlv, F, fact, inv);
        int8_t cls[K_NCLASS][K_MAX_CARDS];
        int ncl[K_NCLASS], at[K_NCLASS] = {0, 0, 0};
        ncl[0] = ids_of(pool & c->colour_mask[0], cls[0]);
        ncl[1] = ids_of(pool & c->colour_mask[1], cls[1]);
        ncl[2] = ids_of(pool & ~(c->colour_mask[0] | c->colour_mask[1]), cls[2]);
        for (int k = 0; k < K_NCLASS; k++) kitsu_shuffle_ids(cls[k], ncl[k], r);
        int W = d->n[1] + 1, plane = (d->n[0] + 1) * W, b = d->n[0], o2 = d->n[1];
        int spec = d->n[2];
        for (int j = 0; j < nlv; j++) {
            int p = lv[j];
            double w[K_PLANE];
            int nw = 0, choice_b[K_PLANE], choice_o[K_PLANE];
            double total = 0.0;
            const double *Fn = F + (size_t)(j + 1) * plane;
            for (int bb = 0; bb <= b && bb <= d->need[p]; bb++)
                for (int oo = 0; oo <= o2 && bb + oo <= d->need[p]; oo++) {
                    double t = seat_term(d, p, bb, oo, spec, inv);
                    w[nw] = t > 0.0 ? t * Fn[(b - bb) * W + (o2 - oo)] : 0.0;
                    choice_b[nw] = bb; choice_o[nw] = oo;
                    total += w[nw++];
                }
            int k = pick_weighted(w, nw, total, r);
            if (k < 0) return -1;
            int take[K_NCLASS] = {choice_b[k], choice_o[k], d->need[p] - choice_b[k] - choice_o[k]};
            for (int cl = 0; cl < K_NCLASS; cl++)
                for (int i = 0; i < take[cl]; i++) hand[p] |= bb_bit32(cls[cl][at[cl]++]);
            b -= take[0]; o2 -= take[1]; spec -= take[2];
        }
        for (int cl = 0; cl < K_NCLASS; cl++)
            while (at[cl] < ncl[cl]) rest[nrest++] = cls[cl][at[cl]++];
    } else {
        nrest = ids_of(pool, rest);
    }
    kitsu_shuffle_ids(rest, nrest, r);
    int i = 0;
    for (int p = 0; p < P; p++) {
        if (p == o || d->cap[p][0] < K_UNCAPPED || d->cap[p][1] < K_UNCAPPED) continue;
        for (int k = 0; k < d->need[p]; k++) hand[p] |= bb_bit32(rest[i++]);
    }
    for (int k = 0; k < d->nbin; k++) bin_ids[k] = rest[i++];
    return 0;
}

/* One candidate for another seat's hidden trick card. */
typedef struct {
    int from_known;   /* 1: one of the cards o knows the owner holds, of type t */
    int t;            /* that type, or the class (KCL_*) of a free card: special = White */
    double w;         /* physical choices x deals of the rest */
    DealShape d;
} HiddenChoice;

/* Resample in place; -1 if no deal fits (never for a state reached by play). */
int kitsu_sample_world(const KitsuConfig *c, KitsuState *s, int o, BLRng *r) {
    int P = c->players;
    /* Everything o cannot see, in id order. */
    uint32_t pool = s->stock;
    int x = -1, ix = -1;
    for (int p = 0; p < P; p++) {
        if (p == o) continue;
        pool |= s->hand[p];
        if (s->exchange_card[p] >= 0) pool |= bb_bit32(s->exchange_card[p]);
    }
    for (int i = 0; i < s->n_played; i++)
        if ((s->trick_flags[i] & KF_HIDDEN) && s->trick_seat[i] != o) {
            if (x >= 0) return -1;                /* one Hidden-card token */
            x = s->trick_seat[i]; ix = i;
            pool |= bb_bit32(s->trick_card[i]);
        }
    /* Cards o knows another seat holds go there first (lowest ids: canonical). */
    uint32_t group[K_MAX_PLAYERS] = {0};
    DealShape d;
    memset(&d, 0, sizeof d);
    for (int p = 0; p < P; p++) {
        d.cap[p][0] = d.cap[p][1] = K_UNCAPPED;
        if (p == o) continue;
        for (int t = 0; t < K_NTYPES; t++)
            if (!kitsu_take_copies(c, &pool, &group[p], t, s->known[o][p][t])) return -1;
        d.need[p] = bb_popcount32(s->hand[p]) + (p == x) - bb_popcount32(group[p]);
        if (d.need[p] < 0) return -1;
        for (int col = 0; col < 2; col++)
            if (s->colour_cap[p][col] != NO_CAP) {
                d.cap[p][col] = s->colour_cap[p][col] - bb_popcount32(group[p] & c->colour_mask[col]);
                if (d.cap[p][col] < 0) return -1;
            }
    }
    for (int p = 0; p < P; p++) if (p != o && s->exchange_card[p] >= 0) d.nbin++;
    d.nbin += bb_popcount32(s->stock);
    d.n[0] = bb_popcount32(pool & c->colour_mask[0]);
    d.n[1] = bb_popcount32(pool & c->colour_mask[1]);
    d.n[2] = bb_popcount32(pool) - d.n[0] - d.n[1];

    const double *fact = c->fact, *inv = c->inv_fact;
    int lv[K_MAX_PLAYERS];
    int8_t hidden_id = -1;
    if (x >= 0) {
        /* The hidden card: enumerate what it can be, weighted by its deals. (Its
         * owner plays no later card of this trick before the trick ends and
         * reveals it, except a Katana: the hand is all there is to check.) */
        int fc = s->trick_forced[ix];
        int known_fc = fc >= 0 ? bb_popcount32(group[x] & c->colour_mask[fc]) : 0;
        HiddenChoice ch[K_NCLASS + K_NTYPES];
        int nch = 0;
        double total = 0.0;
        for (int k = 0; k < K_NCLASS + K_NTYPES; k++) {
            HiddenChoice h;
            h.from_known = k >= K_NCLASS;
            h.t = h.from_known ? k - K_NCLASS : k;
            h.d = d;
            int copies, cls, t = h.from_known ? h.t : (k == KCL_SPECIAL ? KT_WHITE : -1);
            if (h.from_known) {
                if (t == KT_KATANA || t == KT_BLACK) continue;
                copies = type_count(c, group[x], t);
                cls = class_of_type(t);
            } else {
                cls = k;
                copies = k == KCL_SPECIAL ? type_count(c, pool, KT_WHITE) : h.d.n[k];
                h.d.need[x]--;
                h.d.n[k]--;
                if (k != KCL_SPECIAL && h.d.cap[x][k] < K_UNCAPPED && --h.d.cap[x][k] < 0) continue;
            }
            if (copies <= 0 || h.d.need[x] < 0) continue;
            if (fc >= 0 && cls != fc) {
                /* Not the forced colour: the owner had none of it. */
                if (known_fc > 0) continue;
                h.d.cap[x][fc] = 0;
            }
            h.w = copies * deal_count(&h.d, P, fact, inv);
            if (h.w <= 0.0) continue;
            total += h.w;
            ch[nch++] = h;
        }
        if (nch == 0 || !(total > 0.0)) return -1;
        double w[K_NCLASS + K_NTYPES];
        for (int i = 0; i < nch; i++) w[i] = ch[i].w;
        const HiddenChoice *h = &ch[pick_weighted(w, nch, total, r)];
        uint32_t from;
        if (h->from_known) from = group[x] & c->type_mask[h->t];
        else if (h->t == KCL_SPECIAL) from = pool & c->type_mask[KT_WHITE];
        else from = pool & c->colour_mask[h->t];
        int k = (int)bl_rng_below(r, (uint32_t)bb_popcount32(from));
        while (k-- > 0) from &= from - 1;
        hidden_id = (int8_t)bb_lsb32(from);
        if (h->from_known) group[x] &= ~bb_bit32(hidden_id);
        else pool &= ~bb_bit32(hidden_id);
        d = h->d;
    } else if (capped_seats(&d, P, lv) > 0 && !(deal_count(&d, P, fact, inv) > 0.0)) {
        return -1;
    }

    int8_t bin[K_MAX_CARDS];
    if (deal_free(c, &d, P, o, pool, group, bin, r, fact, inv) != 0) return -1;
    for (int p = 0; p < P; p++)
        if (p != o) s->hand[p] = group[p];
    if (x >= 0) s->trick_card[ix] = hidden_id;
    int i = 0;
    for (int p = 0; p < P; p++)
        if (p != o && s->exchange_card[p] >= 0) s->exchange_card[p] = bin[i++];
    s->stock = 0;
    while (i < d.nbin) s->stock |= bb_bit32(bin[i++]);
    return 0;
}

/* No state reached by play or set up from facts fails here (the true deal
 * satisfies every constraint); a corrupt one is reported, not papered over. */
int kitsu_determinize(const BLGame *g, void *vst, int o, BLRng *r) {
    const KitsuConfig *c = CFG(g);
    KitsuState *s = ST(vst);
    int P = c->players;
    KitsuState src;
    memcpy(&src, s, sizeof src);
    if (kitsu_sample_world(c, s, o, r) != 0) {
        memcpy(s, &src, sizeof src);
        return -1;
    }
    /* The other seats' knowledge in this world: what is public (what o knows,
     * less the card o gave, which only o knows), plus what they know of o's
     * hand, which o knows. Exchanges o did not see are not part of it. */
    uint8_t pub[K_MAX_PLAYERS][K_NTYPES];
    for (int q = 0; q < P && q < K_MAX_PLAYERS; q++)
        for (int t = 0; t < K_NTYPES; t++) {
            int k = src.known[o][q][t];
            if (P > 2 && q == exchange_target(c, o) && src.gave[o] == t && k > 0) k--;
            pub[q][t] = (uint8_t)k;
        }
    for (int p = 0; p < P; p++) {
        if (p == o) continue;
        for (int q = 0; q < P && q < K_MAX_PLAYERS; q++)
            if (q != o && q != p) memcpy(s->known[p][q], pub[q], sizeof pub[q]);
        if (s->gave[p] >= 0 && exchange_target(c, p) != o) {
            s->gave[p] = s->recv[exchange_target(c, p)] = -1;
        }
    }
    bl_rng_seed(&s->rng, bl_rng_next(r));
    return 0;
}
/* Inference from play (py/boardlab/games/kitsu_inference.py) asks what another
 * seat would have done with a given hand: in a world (a determinization), give
 * `seat` exactly counts[t] cards of each type t, taken from the cards the world
 * put in that hand or in the stock (the cards its observer could not see);
 * the cards it held go back to the stock. -1 (nothing changed) if the counts
 * do not add up to the hand's size or the cards are not there. */
int kitsu_set_hand(const BLGame *g, void *vst, int seat, const int *counts) {
    const KitsuConfig *c = CFG(g);
    KitsuState *s = ST(vst);
    if (seat < 0 || seat >= c->players) return -1;
    uint32_t pool = s->hand[seat] | s->stock, hand = 0;
    int n = 0;
    for (int t = 0; t < K_NTYPES; t++) {
        if (counts[t] < 0) return -1;
        if (!kitsu_take_copies(c, &pool, &hand, t, counts[t])) return -1;
        n += counts[t];
    }
    if (n != bb_popcount32(s->hand[seat])) return -1;
    s->hand[seat] = hand;
    s->stock = pool;
    return 0;
}

/* The types in `seat`'s hand of a world (counts[K_NTYPES]) and the type of its
 * face-down card in the current trick (-1 none): what inference walks back from. */
int kitsu_world_hand(const BLGame *g, const void *vst, int seat, int *counts) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = (const KitsuState *)vst;
    for (int t = 0; t < K_NTYPES; t++) counts[t] = type_count(c, s->hand[seat], t);
    for (int i = 0; i < s->n_played; i++)
        if ((s->trick_flags[i] & KF_HIDDEN) && s->trick_seat[i] == seat)
            return c->type_of[s->trick_card[i]];
    return -1;
}
