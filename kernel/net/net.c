/* The policy-value network: file loading (validated) and the forward pass (net.h). */
#include "net.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The forward pass is built twice on x86-64 Linux, for AVX2 and for any x86-64, and the
 * loader picks one for the machine (an ifunc), so the wheel stays portable. AVX2 without
 * FMA computes the very same operations in the same order, only eight at a time: the
 * results are equal on every machine. The helpers are inlined into each build. */
#if defined(__x86_64__) && defined(__linux__) && defined(__GLIBC__) && \
    (defined(__clang__) ? __clang_major__ >= 14 : (defined(__GNUC__) && __GNUC__ >= 6))
#define FORWARD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define FORWARD_CLONES
#endif
#define ALWAYS_INLINE inline __attribute__((always_inline))

static void set_err(char *err, int errlen, const char *fmt, ...) {
    if (!err || errlen <= 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, (size_t)errlen, fmt, ap);
    va_end(ap);
}

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* IEEE binary16 -> binary32 (subnormals, infinities and NaN kept as such). */
static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023u, bits;
    if (exp == 31) bits = sign | 0x7f800000u | man << 13;
    else if (exp) bits = sign | (exp + 112) << 23 | man << 13;
    else if (!man) bits = sign;
    else {                                   /* subnormal: normalise */
        exp = 113;
        while (!(man & 1024u)) { man <<= 1; exp--; }
        bits = sign | exp << 23 | (man & 1023u) << 13;
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

int64_t bl_net_param_count(int n_in, int width, int blocks, int n_value, int n_actions) {
    if (n_in < 1 || n_in > BL_NET_MAX_IN || width < 1 || width > BL_NET_MAX_WIDTH
        || blocks < 0 || blocks > BL_NET_MAX_BLOCKS || n_value < 1 || n_value > BL_MAX_PLAYERS
        || n_actions < 1 || n_actions > BL_NET_MAX_ACTIONS) return -1;
    int64_t w = width;
    return w * n_in + w + (int64_t)blocks * 2 * (w * w + w)
         + (int64_t)n_value * w + n_value + (int64_t)n_actions * w + n_actions;
}

/* A NUL-padded name field: printable ASCII, then only NULs. */
static int read_name(const uint8_t *p, int n, char *out) {
    int len = 0;
    while (len < n && p[len]) len++;
    for (int i = len; i < n; i++) if (p[i]) return -1;
    for (int i = 0; i < len; i++) if (p[i] < 32 || p[i] > 126) return -1;
    memcpy(out, p, (size_t)len);
    out[len] = 0;
    return 0;
}

BLNet *bl_net_load_bytes(const uint8_t *buf, size_t len, char *err, int errlen) {
    if (len < BL_NET_HEADER_BYTES) {
        if (len >= 8 && memcmp(buf, BL_NET_MAGIC, 8) != 0)
            set_err(err, errlen, "not a boardlab network file (bad magic)");
        else
            set_err(err, errlen, "truncated network file: %zu bytes, the header alone is %d",
                    len, BL_NET_HEADER_BYTES);
        return NULL;
    }
    if (memcmp(buf, BL_NET_MAGIC, 8) != 0) {
        set_err(err, errlen, "not a boardlab network file (bad magic)");
        return NULL;
    }
    uint32_t version = rd32(buf + 8);
    if (version != BL_NET_VERSION) {
        set_err(err, errlen, "network file version %u, this build reads version %u",
                version, BL_NET_VERSION);
        return NULL;
    }
    BLNet tmp;
    memset(&tmp, 0, sizeof tmp);
    if (read_name(buf + 12, BL_NET_GAME_BYTES, tmp.game) != 0 || !tmp.game[0]) {
        set_err(err, errlen, "network file: the game name is not a NUL-padded ASCII name");
        return NULL;
    }
    if (read_name(buf + 28, BL_NET_CONFIG_BYTES, tmp.config) != 0) {
        set_err(err, errlen, "network file: the configuration key is not NUL-padded ASCII");
        return NULL;
    }
    static const char *const FIELD[] = {"n_in", "width", "blocks", "n_value", "n_actions"};
    uint32_t dim[5];
    for (int i = 0; i < 5; i++) dim[i] = rd32(buf + 60 + 4 * i);
    int64_t count = -1;
    for (int i = 0; i < 5; i++)
        if (dim[i] > BL_NET_MAX_IN) {
            set_err(err, errlen, "network file: %s = %u is out of range", FIELD[i], dim[i]);
            return NULL;
        }
    count = bl_net_param_count((int)dim[0], (int)dim[1], (int)dim[2], (int)dim[3], (int)dim[4]);
    if (count < 0) {
        set_err(err, errlen, "network file: sizes out of range (n_in %u, width %u, blocks %u, "
                "n_value %u, n_actions %u)", dim[0], dim[1], dim[2], dim[3], dim[4]);
        return NULL;
    }
    uint32_t dtype = rd32(buf + 80), act = rd32(buf + 84);
    if (dtype != BL_NET_F32 && dtype != BL_NET_F16) {
        set_err(err, errlen, "network file: unknown weight type %u (1 = float32, 2 = float16)", dtype);
        return NULL;
    }
    if (act != BL_NET_TANH && act != BL_NET_LINEAR) {
        set_err(err, errlen, "network file: unknown value activation %u (0 = tanh, 1 = linear)", act);
        return NULL;
    }
    size_t esize = dtype == BL_NET_F32 ? 4 : 2;
    size_t want = BL_NET_HEADER_BYTES + (size_t)count * esize;
    if (len < want) {
        set_err(err, errlen, "truncated network file: %zu bytes, its sizes need %zu", len, want);
        return NULL;
    }
    if (len > want) {
        set_err(err, errlen, "network file has %zu bytes after its %zu weights (sizes mismatch)",
                len - want, (size_t)count);
        return NULL;
    }
    BLNet *net = malloc(sizeof *net);
    float *w = malloc((size_t)count * sizeof(float));
    float *wt = malloc((size_t)dim[0] * dim[1] * sizeof(float));
    if (!net || !w || !wt) {
        free(net); free(w); free(wt);
        set_err(err, errlen, "out of memory loading a network of %zu weights", (size_t)count);
        return NULL;
    }
    const uint8_t *p = buf + BL_NET_HEADER_BYTES;
    for (int64_t i = 0; i < count; i++, p += esize) {
        if (dtype == BL_NET_F32) {
            uint32_t bits = rd32(p);
            memcpy(&w[i], &bits, sizeof bits);
        } else w[i] = half_to_float((uint16_t)(p[0] | p[1] << 8));
        if (!isfinite(w[i])) {
            free(net); free(w); free(wt);
            set_err(err, errlen, "network file: weight %lld is not a finite number", (long long)i);
            return NULL;
        }
    }
    *net = tmp;
    net->n_in = (int)dim[0]; net->width = (int)dim[1]; net->blocks = (int)dim[2];
    net->n_value = (int)dim[3]; net->n_actions = (int)dim[4];
    net->dtype = (int)dtype; net->value_act = (int)act;
    net->w = w;
    size_t W = (size_t)net->width;
    const float *q = w;
    net->in_w = q; q += W * (size_t)net->n_in;
    net->in_b = q; q += W;
    net->blk = q; q += (size_t)net->blocks * 2 * (W * W + W);
    net->v_w = q; q += (size_t)net->n_value * W;
    net->v_b = q; q += (size_t)net->n_value;
    net->p_w = q; q += (size_t)net->n_actions * W;
    net->p_b = q;
    for (int o = 0; o < net->width; o++)
        for (int i = 0; i < net->n_in; i++) wt[(size_t)i * W + o] = net->in_w[(size_t)o * net->n_in + i];
    net->in_wt = wt;
    /* The blocks' matrices, transposed in place (input-major, as in_wt). */
    for (int k = 0; k < 2 * net->blocks; k++) {
        float *m = w + W * (size_t)net->n_in + W + (size_t)k * (W * W + W);
        for (size_t o = 0; o < W; o++)
            for (size_t i = o + 1; i < W; i++) {
                float a = m[o * W + i];
                m[o * W + i] = m[i * W + o];
                m[i * W + o] = a;
            }
    }
    return net;
}

BLNet *bl_net_load_file(const char *path, char *err, int errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "cannot open network file: %s", strerror(errno));
        return NULL;
    }
    /* Read in chunks: no trust in a size reported before reading. */
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap) break;
        if (cap >= ((size_t)1 << 31)) { free(buf); buf = NULL; break; }
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb) { free(buf); buf = NULL; break; }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf) {
        set_err(err, errlen, "network file too large or out of memory");
        return NULL;
    }
    if (bad) {
        free(buf);
        set_err(err, errlen, "cannot read network file");
        return NULL;
    }
    BLNet *net = bl_net_load_bytes(buf, len, err, errlen);
    free(buf);
    return net;
}

void bl_net_free(BLNet *net) {
    if (!net) return;
    free(net->w);
    free(net->in_wt);
    free(net);
}

int bl_net_check_game(const BLNet *net, const BLGame *g, char *err, int errlen) {
    if (strcmp(net->game, g->vt->name) != 0) {
        set_err(err, errlen, "the network is for %s, not %s", net->game, g->vt->name);
        return -1;
    }
    if (!g->vt->feature_size) {
        set_err(err, errlen, "%s has no network features yet", g->vt->name);
        return -1;
    }
    int nf = g->vt->feature_size(g);
    if (net->n_in != nf) {
        set_err(err, errlen, "the network reads %d features, %s writes %d", net->n_in, net->game, nf);
        return -1;
    }
    if (net->n_actions != g->num_actions) {
        set_err(err, errlen, "the network has %d action outputs, %s has %d actions",
                net->n_actions, net->game, g->num_actions);
        return -1;
    }
    /* One network may serve every player count of a game: a value output per relative
     * seat up to the game's largest count, of which a table reads its first num_players. */
    if (net->n_value < g->num_players) {
        set_err(err, errlen, "the network has %d value outputs, this %s has %d seats",
                net->n_value, net->game, g->num_players);
        return -1;
    }
    return 0;
}

size_t bl_net_scratch_floats(const BLNet *net) {
    return 3 * (size_t)net->width + (size_t)net->n_actions;
}

/* Whether x[i..i+8) are all +0.0f, by their bits (a -0.0f counts as non-zero; it adds
 * only exact zeros): most features are zero, and skipping them eight at a time spares a
 * hard-to-predict branch per feature. */
static inline int zero8(const float *x) {
    uint64_t w[4];
    memcpy(w, x, sizeof w);
    return !(w[0] | w[1] | w[2] | w[3]);
}

/* y += the sum, in order of i, of x[i] * column i of a matrix kept input-major (wt: n
 * columns of m): only the non-zero x[i] are added (most features are one-hot slots, and
 * about half of a hidden layer is cut to zero by its ReLU). */
static ALWAYS_INLINE void add_columns(const float *restrict wt, const float *restrict x, int n,
                                      int m, float *restrict y) {
    for (int i = 0; i < n; i++) {
        if ((i & 7) == 0 && i + 8 <= n && zero8(x + i)) { i += 7; continue; }
        float xi = x[i];
        if (xi == 0.0f) continue;
        const float *col = wt + (size_t)i * m;
        for (int o = 0; o < m; o++) y[o] += xi * col[o];
    }
}

/* y = b + the columns above. At m = 64 (every shipped network's width) the sums are a
 * local array of fixed size, which stays in registers instead of being loaded and stored
 * for each column. Same order, same result. */
static ALWAYS_INLINE void columns(const float *restrict wt, const float *restrict b,
                                  const float *restrict x, int n, int m, float *restrict y) {
    if (m == 64) {
        float acc[64];
        memcpy(acc, b, sizeof acc);
        add_columns(wt, x, n, 64, acc);
        memcpy(y, acc, sizeof acc);
    } else {
        memcpy(y, b, (size_t)m * sizeof(float));
        add_columns(wt, x, n, m, y);
    }
}

/* Row r of W (n columns) dotted with x: eight partial sums so the compiler can
 * vectorise without -ffast-math (the order is fixed, so results are too). */
static ALWAYS_INLINE float dot(const float *restrict row, const float *restrict x, int n) {
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++) acc[k] += row[i + k] * x[i + k];
    float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (; i < n; i++) s += row[i] * x[i];
    return s;
}

/* The pass itself, inlined into each build below. */
static ALWAYS_INLINE void forward(const BLNet *net, const float *x, const int32_t *legal,
                                  int n_legal, float *value_out, float *prior_out, float *scratch) {
    int W = net->width;
    float *h = scratch, *t = scratch + W, *u = scratch + 2 * W, *logit = scratch + 3 * W;
    columns(net->in_wt, net->in_b, x, net->n_in, W, h);
    for (int i = 0; i < W; i++) h[i] = h[i] > 0 ? h[i] : 0;
    const float *b = net->blk;
    size_t ww = (size_t)W * W;
    for (int k = 0; k < net->blocks; k++) {
        const float *w1 = b, *b1 = w1 + ww, *w2 = b1 + W, *b2 = w2 + ww;
        b = b2 + W;
        columns(w1, b1, h, W, W, t);
        for (int i = 0; i < W; i++) t[i] = t[i] > 0 ? t[i] : 0;
        columns(w2, b2, t, W, W, u);
        for (int o = 0; o < W; o++) {
            float v = h[o] + u[o];
            h[o] = v > 0 ? v : 0;
        }
    }
    for (int o = 0; o < net->n_value; o++) {
        float v = dot(net->v_w + (size_t)o * W, h, W) + net->v_b[o];
        value_out[o] = net->value_act == BL_NET_TANH ? tanhf(v) : v;
    }
    if (!prior_out || n_legal <= 0) return;
    float mx = -INFINITY;
    for (int i = 0; i < n_legal; i++) {
        int a = legal[i];
        logit[i] = dot(net->p_w + (size_t)a * W, h, W) + net->p_b[a];
        if (logit[i] > mx) mx = logit[i];
    }
    float sum = 0;
    for (int i = 0; i < n_legal; i++) { prior_out[i] = expf(logit[i] - mx); sum += prior_out[i]; }
    for (int i = 0; i < n_legal; i++) prior_out[i] /= sum;
}

FORWARD_CLONES void bl_net_forward(const BLNet *net, const float *x, const int32_t *legal,
                                   int n_legal, float *value_out, float *prior_out, float *scratch) {
    forward(net, x, legal, n_legal, value_out, prior_out, scratch);
}

void bl_net_forward_portable(const BLNet *net, const float *x, const int32_t *legal, int n_legal,
                             float *value_out, float *prior_out, float *scratch) {
    forward(net, x, legal, n_legal, value_out, prior_out, scratch);
}
