/* A bounded JSON text writer for observe_json(): appends printf-style pieces,
 * never writes past cap, and keeps counting so the caller learns the length
 * it would have needed (len >= cap means the buffer was too small). */
#ifndef BL_JSONW_H
#define BL_JSONW_H

typedef struct { char *buf; int cap, len; } BLJw;

void bl_jw(BLJw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
