"""What the app's store costs per operation: a poll (revision), a seat's view, a human move
(apply) and an AI move (play_ai: claim, search, commit) on a 4-player Kitsu table, on SQLite
and, with --postgres URL (or $BOARDLAB_TEST_POSTGRES), on PostgreSQL. Prints milliseconds
per operation (median of the runs) and a fixed-seed signature of the game played.

    python bench/store_ops.py [--moves 40] [--postgres postgresql://...]
"""
import argparse
import hashlib
import os
import secrets
import statistics
import tempfile
import time

import boardlab
from boardlab.streamlit_app.session import AI, HUMAN, PlaySession
from boardlab.streamlit_app.store import GameStore


def run(store, moves: int) -> dict:
    sess = PlaySession(game=boardlab.make("kitsu", players=4), seats=[HUMAN, AI, HUMAN, AI],
                       preset="Beginner", seed=7)
    t = store.create_table(sess)
    gid = t.game_id
    times = {"revision": [], "view (seat)": [], "view (spectator)": [], "apply": [],
             "play_ai": []}

    def timed(name, fn, *args):
        t0 = time.perf_counter()
        out = fn(*args)
        times[name].append(1000 * (time.perf_counter() - t0))
        return out

    done = 0
    while done < moves:
        timed("revision", store.revision, gid)
        timed("view (spectator)", store.view, gid)
        if timed("play_ai", store.play_ai, gid):
            done += 1
            continue
        v = store.view(gid)
        if v.status == "ended":
            break
        tok = t.seat_tokens[v.to_move]
        mine = timed("view (seat)", store.view, gid, tok)
        timed("apply", store.apply, gid, tok, mine.version, mine.legal[0][0])
        done += 1
    record = store.view(gid, t.host_token)
    sig = hashlib.sha256(repr(record.log).encode()).hexdigest()[:12]
    return {k: statistics.median(v) for k, v in times.items() if v} | {"signature": sig}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--postgres", default=os.environ.get("BOARDLAB_TEST_POSTGRES"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        backends = [("SQLite", None)]
        if args.postgres:
            backends.append(("PostgreSQL", args.postgres))
        for name, url in backends:
            cleanup = None
            if url:
                import sqlalchemy as sa
                from sqlalchemy.engine import make_url
                schema = "bench_" + secrets.token_hex(4)
                admin = sa.create_engine(make_url(url).set(drivername="postgresql+psycopg"))
                with admin.begin() as c:
                    c.execute(sa.text(f"CREATE SCHEMA {schema}"))
                url = make_url(url).update_query_dict(
                    {"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)

                def cleanup(admin=admin, schema=schema):
                    with admin.begin() as c:
                        c.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
                    admin.dispose()
            store = GameStore(d, url=url)
            try:
                figures = run(store, args.moves)
            finally:
                store.close()
                if cleanup:
                    cleanup()
            sig = figures.pop("signature")
            print(f"{name}: " + ", ".join(f"{k} {v:.1f} ms" for k, v in figures.items())
                  + f"  (median; {args.moves} moves, signature {sig})")


if __name__ == "__main__":
    main()
