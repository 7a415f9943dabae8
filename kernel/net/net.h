/* A small policy-value network evaluated in float32 (issue 40; docs/learning.md).
 *
 * Shape (a residual MLP):
 *     h = relu(W_in x + b_in)                          x: n_in features
 *     k times: h = relu(h + W2 relu(W1 h + b1) + b2)   width x width blocks
 *     value  = tanh(W_v h + b_v)  (or linear)          n_value outputs (one per relative seat,
 *                                                      up to the largest player count)
 *     logits = W_p h + b_p, over the legal actions only, then softmax
 *
 * Weights are row-major, output-major (W[o][i], as torch.nn.Linear stores them),
 * in that order: W_in, b_in, then per block W1, b1, W2, b2, then W_v, b_v, W_p, b_p.
 *
 * File format (every integer little-endian uint32, weights little-endian):
 *     offset  0  magic "BLNET\r\n\x1a" (8 bytes)
 *             8  version (1)
 *            12  game name, 16 bytes, NUL-padded ("kitsu")
 *            28  configuration key, 32 bytes, NUL-padded ("players=2")
 *            60  n_in, width, blocks, n_value, n_actions
 *            80  dtype (1 = float32, 2 = float16), value activation (0 = tanh, 1 = linear)
 *            88  weights: bl_net_param_count() values of the dtype, nothing after them
 * Loading checks every field and every weight (finite) and names what is wrong.
 *
 * Inference allocates nothing: the caller owns a scratch of bl_net_scratch_floats()
 * floats (one per thread). A loaded BLNet is read-only, so threads may share it.
 */
#ifndef BL_NET_H
#define BL_NET_H
#include <stddef.h>
#include <stdint.h>
#include "../common/game_api.h"

#define BL_NET_MAGIC "BLNET\r\n\x1a"
#define BL_NET_VERSION 1u
#define BL_NET_HEADER_BYTES 88
#define BL_NET_GAME_BYTES 16
#define BL_NET_CONFIG_BYTES 32
enum { BL_NET_F32 = 1, BL_NET_F16 = 2 };
enum { BL_NET_TANH = 0, BL_NET_LINEAR = 1 };
/* Bounds that keep every size product far from overflow. */
#define BL_NET_MAX_IN 65536
#define BL_NET_MAX_WIDTH 4096
#define BL_NET_MAX_BLOCKS 64
#define BL_NET_MAX_ACTIONS 65536

typedef struct {
    char game[BL_NET_GAME_BYTES + 1];
    char config[BL_NET_CONFIG_BYTES + 1];
    int n_in, width, blocks, n_value, n_actions;
    int dtype, value_act;
    float *w;                 /* all parameters, in file order (owned) */
    const float *in_w, *in_b;
    float *in_wt;             /* in_w transposed, input-major (owned): the input layer
                                 adds one column per non-zero feature */
    const float *blk;         /* blocks x (W1, b1, W2, b2), W1 and W2 transposed at load */
    const float *v_w, *v_b, *p_w, *p_b;
} BLNet;

/* Parameters of a network of this shape (-1 if a size is out of bounds). */
int64_t bl_net_param_count(int n_in, int width, int blocks, int n_value, int n_actions);
/* Parse a network file image; NULL with a message naming the fault in err. */
BLNet *bl_net_load_bytes(const uint8_t *buf, size_t len, char *err, int errlen);
/* Read and parse a file; NULL with a message naming the fault (or the OS error). */
BLNet *bl_net_load_file(const char *path, char *err, int errlen);
void bl_net_free(BLNet *net);
/* 0 if net fits game g (its name, feature size, action space, and at least a value
 * output per seat: one network may serve several player counts), else -1
 * with a message naming the mismatch. */
int bl_net_check_game(const BLNet *net, const BLGame *g, char *err, int errlen);
/* Floats of scratch one forward pass needs. */
size_t bl_net_scratch_floats(const BLNet *net);
/* One forward pass: value_out gets n_value values; prior_out gets one probability
 * per legal action (legal[0..n_legal), ids < n_actions, as legal_actions wrote
 * them), summing to 1. prior_out may be NULL (value only). */
void bl_net_forward(const BLNet *net, const float *x, const int32_t *legal, int n_legal,
                    float *value_out, float *prior_out, float *scratch);
/* The same pass built for any machine of the architecture (bl_net_forward may pick a
 * build for a wider instruction set): for the test that both give the same bits. */
void bl_net_forward_portable(const BLNet *net, const float *x, const int32_t *legal, int n_legal,
                             float *value_out, float *prior_out, float *scratch);

#endif
