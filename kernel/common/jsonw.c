#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "jsonw.h"

/* Append n bytes, truncated at cap and NUL-terminated as vsnprintf would be. */
static void put(BLJw *w, const char *s, int n) {
    int room = w->cap - w->len;
    if (room > 0) {
        int k = n < room - 1 ? n : room - 1;
        memcpy(w->buf + w->len, s, (size_t)k);
        w->buf[w->len + k] = 0;
    }
    w->len += n;
}

/* Literal text, %d, %s, %c and %% (nearly every piece an observation writes) by hand:
 * vsnprintf's set-up per call was most of an observation's time. Any other conversion
 * starts the piece again with vsnprintf. */
void bl_jw(BLJw *w, const char *fmt, ...) {
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int start = w->len;
    for (const char *p = fmt; *p;) {
        const char *q = p;
        while (*q && *q != '%') q++;
        if (q > p) put(w, p, (int)(q - p));
        if (!*q) break;
        char c = q[1], tmp[12];
        if (c == 'd') {
            int v = va_arg(ap, int), i = sizeof tmp;
            unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
            do tmp[--i] = (char)('0' + u % 10); while (u /= 10);
            if (v < 0) tmp[--i] = '-';
            put(w, tmp + i, (int)sizeof tmp - i);
        } else if (c == 's') {
            const char *s = va_arg(ap, const char *);
            put(w, s, (int)strlen(s));
        } else if (c == 'c' || c == '%') {
            tmp[0] = c == 'c' ? (char)va_arg(ap, int) : '%';
            put(w, tmp, 1);
        } else {                         /* a width or the like: the C library's formatter */
            w->len = start;
            int room = w->cap - start;
            w->len += vsnprintf(w->buf + (room > 0 ? start : 0), room > 0 ? (size_t)room : 0,
                                fmt, again);
            break;
        }
        p = q + 2;
    }
    va_end(again);
    va_end(ap);
}
