/* Kyushu: the heuristic the search falls back on (the score so far plus what
 * each map can still become, relative to the other seats). */
#include "kyushu.h"

#define CFG(g) ((const KyuConfig *)(g)->config)
#define CST(p) ((const KyuState *)(p))

void kyushu_evaluate(const BLGame *g, const void *vst, double *out) {
    const KyuConfig *c = CFG(g);
    const KyuState *s = CST(vst);
    int P = c->players;
    if (s->phase == KP_OVER) { kyushu_returns(g, vst, out); return; }
    const KyuMap *maps[KY_MAXP];
    KyuScore sc[KY_MAXP];
    real_maps(s, maps);
    kyu_score_all(c, s, maps, sc);
    /* What a map can still become: resources waiting for a factory and
     * factories waiting for a resource are half-way to points; a Fallow is
     * a terraforming option. */
    double est[KY_MAXP];
    for (int p = 0; p < P; p++) {
        const KyuMap *m = maps[p];
        int res = kyu_count_res(m), fact = 0;
        for (int k = 0; k < KC_N; k++) fact += kyu_count_plane(m, m->ter[KT_FACT + k - 1]);
        int fed = sc[p].metric[0][7];
        est[p] = sc[p].total + 1.0 * (res - fed) + 0.5 * (fact - fed) + 0.5 * sc[p].fallows;
    }
    for (int p = 0; p < P; p++) {
        double others = 0;
        for (int q = 0; q < P; q++)
            if (q != p) others += est[q];
        double d = (est[p] - others / (P - 1)) / 15.0;
        /* tanh without libm: a rational approximation, odd and in (-1, 1). */
        double x = d < -3 ? -3 : d > 3 ? 3 : d;
        out[p] = x * (27 + x * x) / (27 + 9 * x * x);
    }
}
