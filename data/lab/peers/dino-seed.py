"""Dino's account and conversations for a lab session, written into its database.

    dino-seed.py wait DB           waits (up to 60 s) until Dino's first start made its schema
    dino-seed.py seed DB DOMAIN    adds the account lab@DOMAIN (password "pass", as the
                                   session's prosody has it), a group chat
                                   room@conference.DOMAIN and a chat with peer@DOMAIN, the
                                   most recent one: the one Dino opens, its input focused

Dino 0.4.2 has no command line or setting for an account (its first run asks for one in a
window); its database is the way (schema 26: libdino/src/service/database.vala). The
conversation types: chat 0, group chat 1; encryption none 0.
"""
import sqlite3
import sys
import time

command, path = sys.argv[1], sys.argv[2]
if command == "wait":
    deadline = time.monotonic() + 60
    while True:
        try:
            with sqlite3.connect(path, timeout=1) as db:
                db.execute("select 1 from conversation limit 0")
                db.execute("select 1 from account limit 0")
            break
        except sqlite3.Error:
            if time.monotonic() > deadline:
                sys.exit("no Dino schema in %s after 60 s" % path)
            time.sleep(0.05)
elif command == "seed":
    domain, now = sys.argv[3], int(time.time())
    with sqlite3.connect(path, timeout=5) as db:
        db.execute("insert or ignore into account(bare_jid, resourcepart, password, alias, enabled) "
                   "values (?, 'dino-lab', 'pass', 'lab', 1)", ("lab@" + domain,))
        for jid in ("room@conference." + domain, "peer@" + domain):
            db.execute("insert or ignore into jid(bare_jid) values (?)", (jid,))
        columns = ("account_id, jid_id, resource, active, active_last_changed, last_active, type, encryption, "
                   "read_up_to_item, notification, send_typing, send_marker, pinned")
        for jid, resource, last, kind in (("room@conference." + domain, "lab", now - 10, 1), ("peer@" + domain, None, now, 0)):
            db.execute("insert into conversation(%s) select a.id, j.id, ?, 1, ?, ?, ?, 0, -1, 0, 0, 0, 0 "
                       "from account a, jid j where a.bare_jid = ? and j.bare_jid = ?" % columns,
                       (resource, now, last, kind, "lab@" + domain, jid))
else:
    sys.exit("usage: dino-seed.py wait DB | seed DB DOMAIN")
