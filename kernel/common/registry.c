/* The list of compiled games. A new game adds its vtable here. */
#include <string.h>
#include "game_api.h"

extern const BLGameVTable bl_kitsu_vtable;
extern const BLGameVTable bl_kyushu_vtable;
extern const BLGameVTable bl_keyside_vtable;
extern const BLGameVTable bl_nukumi_vtable;

static const BLGameVTable *const GAMES[] = {
    &bl_kitsu_vtable, &bl_kyushu_vtable, &bl_keyside_vtable, &bl_nukumi_vtable };
static const int N_GAMES = (int)(sizeof GAMES / sizeof GAMES[0]);

const BLGameVTable *bl_find_game(const char *name) {
    for (int i = 0; i < N_GAMES; i++)
        if (strcmp(GAMES[i]->name, name) == 0) return GAMES[i];
    return NULL;
}

const char *bl_game_name(int i) { return (i >= 0 && i < N_GAMES) ? GAMES[i]->name : NULL; }
