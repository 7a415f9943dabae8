#include <stdarg.h>
#include <stdio.h>
#include "jsonw.h"

void bl_jw(BLJw *w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int room = w->cap - w->len;
    int k = vsnprintf(w->buf + (room > 0 ? w->len : 0), room > 0 ? (size_t)room : 0, fmt, ap);
    va_end(ap);
    w->len += k;
}
