/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/db.c -- the connection, at the bottom of store/: opening the
 * database file (modes, pragmas, numbered schema migrations), the cache
 * of prepared statements, closing.  store/open.c adds the modules' hooks
 * to make store_open(); the statements of each table live in their own
 * file (store/device.c, store/prekey.c, store/signal.c, store/message.c,
 * ...).
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#define LOG_TAG "store"
#include "base/err.h"
#include "base/log.h"
#include "store/backup.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

/*
 * Migration N takes the schema from version N-1 to N.  Append only: a
 * released migration is never edited, so every past schema can still be
 * brought forward.
 */
static const char *const migrations[] = {
	/* 1: this device's keys and its one-time prekeys */
	"CREATE TABLE device ("
	"  id INTEGER PRIMARY KEY CHECK (id = 1),"
	"  noise_priv BLOB NOT NULL, noise_pub BLOB NOT NULL,"
	"  identity_priv BLOB NOT NULL, identity_pub BLOB NOT NULL,"
	"  registration_id INTEGER NOT NULL,"
	"  adv_secret BLOB NOT NULL,"
	"  spk_id INTEGER NOT NULL, spk_priv BLOB NOT NULL,"
	"  spk_pub BLOB NOT NULL, spk_sig BLOB NOT NULL,"
	"  jid TEXT NOT NULL DEFAULT '', lid TEXT NOT NULL DEFAULT '',"
	"  push_name TEXT NOT NULL DEFAULT '',"
	"  account_sig_key BLOB, adv_identity BLOB);"
	"CREATE TABLE prekey ("
	"  id INTEGER PRIMARY KEY CHECK (id BETWEEN 1 AND 16777215),"
	"  priv BLOB NOT NULL, pub BLOB NOT NULL,"
	"  uploaded INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
	"INSERT INTO counter VALUES ('next_prekey_id', 1);",
	/*
	 * 2: Signal state (store/signal.c): sessions and sender keys as
	 * libsignal's own serialized records, keyed by address (protocol.md
	 * 5.4); remote identity keys (32 bytes, no 0x05 type byte) with the
	 * time they were first seen and last changed (0: never changed).
	 */
	"CREATE TABLE session ("
	"  name TEXT NOT NULL, device INTEGER NOT NULL,"
	"  record BLOB NOT NULL,"
	"  PRIMARY KEY (name, device)) WITHOUT ROWID;"
	"CREATE TABLE identity ("
	"  name TEXT NOT NULL, device INTEGER NOT NULL,"
	"  key BLOB NOT NULL CHECK (length(key) = 32),"
	"  seen_ms INTEGER NOT NULL, changed_ms INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (name, device)) WITHOUT ROWID;"
	"CREATE TABLE sender_key ("
	"  group_id TEXT NOT NULL, name TEXT NOT NULL, device INTEGER NOT NULL,"
	"  record BLOB NOT NULL,"
	"  PRIMARY KEY (group_id, name, device)) WITHOUT ROWID;",
	/*
	 * 3: chats, messages and what hangs off them (store/chat.c,
	 * message.c, page.c, outbox.c, receipt.c, edit.c, contact.c).
	 * chat: one row per chat JID; last_ms and last_rowid name its newest
	 * message and last_* hold a copy of that message's preview (text cut
	 * to STORE_CHAT_PREVIEW_MAX characters), kept current by
	 * store/chat.c, so the chat list reads the chat table alone (no
	 * random reads into a million-row message table); muted_until and
	 * pinned are ms (0: off).
	 * message: rowid is the store order and the keyset tiebreak
	 * (AUTOINCREMENT: never reused, so a saved cursor stays valid);
	 * UNIQUE (chat, from_me, id) makes delivery exactly once; sender is
	 * the author's user JID in groups, '' otherwise; state is enum
	 * store_msg_state (only ever moves up, except FAILED -> QUEUED);
	 * edited is the ms of the edit shown (0: none); payload is an
	 * outgoing message's plaintext protobuf, kept for resends.  Indexes:
	 * message_page pages by (chat, ts_ms, rowid) (perf.md U1/U2: keyset,
	 * no OFFSET); message_outbox holds just the QUEUED rows,
	 * message_unread just the RECEIVED ones, message_payload the rows
	 * with a payload.  reaction: one per (chat, target, sender), emoji
	 * '' is a removal kept as a tombstone.  contact: names of a user JID
	 * (PN or LID).  lid_map: PN <-> LID user JIDs, one to one
	 * (protocol.md 5.3).  device_list: a usync device list (protocol.md
	 * 8.2), 9 bytes per device: id and key index as 4-byte big-endian,
	 * then 1 if hosted.
	 */
	"CREATE TABLE chat ("
	"  jid TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL DEFAULT '',"
	"  last_ms INTEGER NOT NULL DEFAULT 0,"
	"  last_rowid INTEGER NOT NULL DEFAULT 0,"
	"  unread INTEGER NOT NULL DEFAULT 0,"
	"  muted_until INTEGER NOT NULL DEFAULT 0,"
	"  pinned INTEGER NOT NULL DEFAULT 0,"
	"  archived INTEGER NOT NULL DEFAULT 0,"
	"  last_read_rowid INTEGER NOT NULL DEFAULT 0,"
	"  last_from_me INTEGER NOT NULL DEFAULT 0,"
	"  last_sender TEXT NOT NULL DEFAULT '',"
	"  last_kind INTEGER NOT NULL DEFAULT 0,"
	"  last_state INTEGER NOT NULL DEFAULT 0,"
	"  last_deleted INTEGER NOT NULL DEFAULT 0,"
	"  last_text TEXT NOT NULL DEFAULT '');"
	"CREATE INDEX chat_order ON chat (archived, pinned, last_ms);"
	"CREATE TABLE message ("
	"  rowid INTEGER PRIMARY KEY AUTOINCREMENT,"
	"  chat TEXT NOT NULL, id TEXT NOT NULL,"
	"  sender TEXT NOT NULL DEFAULT '',"
	"  from_me INTEGER NOT NULL, ts_ms INTEGER NOT NULL,"
	"  kind INTEGER NOT NULL DEFAULT 0, text TEXT NOT NULL DEFAULT '',"
	"  quoted_id TEXT NOT NULL DEFAULT '',"
	"  quoted_sender TEXT NOT NULL DEFAULT '',"
	"  quoted_text TEXT NOT NULL DEFAULT '',"
	"  state INTEGER NOT NULL, edited INTEGER NOT NULL DEFAULT 0,"
	"  deleted INTEGER NOT NULL DEFAULT 0, payload BLOB,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  UNIQUE (chat, from_me, id));"
	"CREATE INDEX message_page ON message (chat, ts_ms);"
	"CREATE INDEX message_outbox ON message (state) WHERE state = 0;"
	"CREATE INDEX message_unread ON message (chat, ts_ms) WHERE state = 3;"
	"CREATE INDEX message_payload ON message (ts_ms)"
	"  WHERE payload IS NOT NULL;"
	"CREATE TABLE reaction ("
	"  chat TEXT NOT NULL, target_id TEXT NOT NULL, sender TEXT NOT NULL,"
	"  emoji TEXT NOT NULL, ts_ms INTEGER NOT NULL,"
	"  PRIMARY KEY (chat, target_id, sender)) WITHOUT ROWID;"
	"CREATE TABLE contact ("
	"  jid TEXT PRIMARY KEY NOT NULL, push_name TEXT NOT NULL DEFAULT '',"
	"  name TEXT NOT NULL DEFAULT '') WITHOUT ROWID;"
	"CREATE TABLE lid_map ("
	"  pn TEXT PRIMARY KEY NOT NULL, lid TEXT NOT NULL UNIQUE) WITHOUT ROWID;"
	"CREATE TABLE device_list ("
	"  user TEXT PRIMARY KEY NOT NULL, devices BLOB NOT NULL,"
	"  fetched_ms INTEGER NOT NULL) WITHOUT ROWID;",
	/*
	 * 4: groups (store/group.c; protocol.md 10.1, 10.4).  grp: a
	 * group's metadata as the last w:g2 answer or notification said;
	 * left_group 1 once we left or were removed.  grp_member: its
	 * participants by the JID the group addresses them with (the LID in
	 * LID groups), alt the other one; admin 1, superadmin 2.
	 * sender_key_recipient: the devices that hold our current sender
	 * key for the group (10.4), wiped when the key is replaced.
	 */
	"CREATE TABLE grp ("
	"  jid TEXT PRIMARY KEY NOT NULL, subject TEXT NOT NULL DEFAULT '',"
	"  description TEXT NOT NULL DEFAULT '',"
	"  mode TEXT NOT NULL DEFAULT 'pn', creator TEXT NOT NULL DEFAULT '',"
	"  creation_ms INTEGER NOT NULL DEFAULT 0,"
	"  left_group INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;"
	"CREATE TABLE grp_member ("
	"  grp TEXT NOT NULL, jid TEXT NOT NULL, alt TEXT NOT NULL DEFAULT '',"
	"  admin INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (grp, jid)) WITHOUT ROWID;"
	"CREATE TABLE sender_key_recipient ("
	"  grp TEXT NOT NULL, device TEXT NOT NULL,"
	"  PRIMARY KEY (grp, device)) WITHOUT ROWID;",
	/*
	 * 5: full-text search (store/search.c).  message_fts: an FTS5 index
	 * over message.text with external content (the text is stored once,
	 * in message; the index holds only tokens), tokenized by unicode61
	 * with diacritics removed ("cafe" finds "café", case folded), with
	 * prefix indexes for 1 and 2 characters so a one- or two-letter
	 * keystroke reads one doclist instead of merging thousands (perf.md
	 * U3, A14).  A row is searchable when it is not revoked (deleted =
	 * 0), is a text or a media caption (kind 0 or 1; notices,
	 * placeholders and hidden protocol rows are not) and is not empty.
	 * Every searchable row is either in message_fts or in fts_pending:
	 * the triggers index a row as it is written, except while the row
	 * 'fts_defer' is in counter (store/history.c sets it inside its own
	 * transaction only, so no other connection ever sees it), when the
	 * row's rowid goes to fts_pending instead, to be indexed later in
	 * large batches by store_fts_catch_up() (perf.md H2: indexing 400
	 * rows per transaction costs more than the rest of the import).  A
	 * search reads both.  The update and delete triggers keep that true
	 * for edits, revokes, placeholders filled and deletes: an
	 * external-content "delete" must name the old text exactly, hence
	 * old.text, and is only issued for a row that is in the index.
	 * Existing rows are indexed here, in the migration's transaction,
	 * then merged into one segment.
	 */
	"CREATE VIRTUAL TABLE message_fts USING fts5(text, content = 'message',"
	"  content_rowid = 'rowid',"
	"  tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2');"
	"CREATE TABLE fts_pending (rowid INTEGER PRIMARY KEY);"
	"CREATE TRIGGER message_fts_insert AFTER INSERT ON message"
	"  WHEN new.deleted = 0 AND new.kind IN (0, 1) AND new.text != '' BEGIN"
	"  INSERT INTO message_fts (rowid, text) SELECT new.rowid, new.text"
	"    WHERE NOT EXISTS (SELECT 1 FROM counter WHERE name = 'fts_defer');"
	"  INSERT INTO fts_pending (rowid) SELECT new.rowid"
	"    WHERE EXISTS (SELECT 1 FROM counter WHERE name = 'fts_defer');"
	"  END;"
	"CREATE TRIGGER message_fts_delete AFTER DELETE ON message BEGIN"
	"  INSERT INTO message_fts (message_fts, rowid, text)"
	"    SELECT 'delete', old.rowid, old.text WHERE old.deleted = 0"
	"    AND old.kind IN (0, 1) AND old.text != ''"
	"    AND old.rowid NOT IN (SELECT rowid FROM fts_pending);"
	"  DELETE FROM fts_pending WHERE rowid = old.rowid;"
	"  END;"
	"CREATE TRIGGER message_fts_update AFTER UPDATE OF text, deleted, kind"
	"  ON message WHEN (old.text IS NOT new.text"
	"  OR old.deleted != new.deleted OR old.kind != new.kind)"
	"  AND old.rowid NOT IN (SELECT rowid FROM fts_pending) BEGIN"
	"  INSERT INTO message_fts (message_fts, rowid, text)"
	"    SELECT 'delete', old.rowid, old.text WHERE old.deleted = 0"
	"    AND old.kind IN (0, 1) AND old.text != '';"
	"  INSERT INTO message_fts (rowid, text) SELECT new.rowid, new.text"
	"    WHERE new.deleted = 0 AND new.kind IN (0, 1) AND new.text != '';"
	"  END;"
	"INSERT INTO message_fts (rowid, text) SELECT rowid, text FROM message"
	"  WHERE deleted = 0 AND kind IN (0, 1) AND text != '';"
	"INSERT INTO message_fts (message_fts) VALUES ('optimize');",
	/*
	 * 6: history-sync notifications waiting to be imported
	 * (store/histq.c; protocol.md 12.1): the decrypted Message that
	 * carried each, queued with the session it advanced.
	 */
	"CREATE TABLE hist_queue ("
	"  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,"
	"  msg BLOB NOT NULL, queued_ms INTEGER NOT NULL);",
	/*
	 * 7: a notification imported stays in hist_queue (imported 1) until
	 * the server acks its hist_sync receipt, so that a receipt lost to a
	 * crash goes again at the next login.
	 */
	"ALTER TABLE hist_queue ADD COLUMN imported INTEGER NOT NULL"
	"  DEFAULT 0;",
	/*
	 * 8: every searchable row written goes to the backlog fts_pending,
	 * not straight into the index (perf.md R4: indexing a message in
	 * its own receive transaction costs more than the rest of storing
	 * it, since FTS5 flushes its pending terms at every statement of
	 * the transaction once it is written).  The backlog is indexed in
	 * batches after a commit (store_fts_batch()) and by
	 * store_fts_catch_up() after a history import; a search reads both,
	 * so nothing stored is ever unsearchable.  The 'fts_defer' counter
	 * of migration 5 is no longer read.
	 */
	"DROP TRIGGER message_fts_insert;"
	"CREATE TRIGGER message_fts_insert AFTER INSERT ON message"
	"  WHEN new.deleted = 0 AND new.kind IN (0, 1) AND new.text != '' BEGIN"
	"  INSERT INTO fts_pending (rowid) VALUES (new.rowid);"
	"  END;"
	"DELETE FROM counter WHERE name = 'fts_defer';",
	/*
	 * 9: a group message's ticks follow every member, not the first
	 * (store_msg_member_receipt()): message.recipients is the number of
	 * members a group message of ours went to (0: a 1:1 message, or a
	 * group message stored before this migration: the first receipt
	 * moves it, as before), member_receipt what each member's devices
	 * reported of it (the highest state), kept until every member read
	 * it.
	 */
	"ALTER TABLE message ADD COLUMN recipients INTEGER NOT NULL"
	"  DEFAULT 0;"
	"CREATE TABLE member_receipt ("
	"  chat TEXT NOT NULL, id TEXT NOT NULL, member TEXT NOT NULL,"
	"  state INTEGER NOT NULL,"
	"  PRIMARY KEY (chat, id, member)) WITHOUT ROWID;",
	/*
	 * 10: a link the server has not yet accepted (pair-success answered,
	 * no <success> since) is marked, so that a login refused then goes
	 * back to a new QR instead of "logged out" (issue 15).  Devices
	 * stored before were linked.
	 */
	"ALTER TABLE device ADD COLUMN unconfirmed INTEGER NOT NULL DEFAULT 0;",
	/*
	 * 11: privacy tokens (protocol.md 15.6, issue 16): per contact,
	 * keyed by its LID user JID when the LID is known (as WA Web and
	 * Baileys key them), else its PN, the trusted-contact token it gave
	 * us with its timestamp t (unix s; token empty when we hold none)
	 * and when we last issued ours to it (sender_t, unix s; 0 never);
	 * and the account's nctSalt (for cstoken), one row.
	 */
	"CREATE TABLE privtok ("
	"  jid TEXT PRIMARY KEY, token BLOB NOT NULL DEFAULT x'',"
	"  t INTEGER NOT NULL DEFAULT 0, sender_t INTEGER NOT NULL DEFAULT 0"
	"  ) WITHOUT ROWID;"
	"CREATE TABLE privtok_salt ("
	"  id INTEGER PRIMARY KEY CHECK (id = 1), salt BLOB NOT NULL);",
	/*
	 * 12: the search index is tokenized by "wachat" (store/fts-tok.c,
	 * issue 17): unicode61 as before for words, overlapping bigrams for
	 * runs of Chinese, Japanese and Korean characters, so that a word
	 * inside a run is found.  The index is made again over the rows it
	 * held (the backlog's rows stay there, indexed by its batches), in
	 * the migration's transaction (FTS5 writes a segment each time its
	 * pending terms pass 1 MB, so memory stays bounded), then merged
	 * into one segment: 10 s for the 1.1 M rows of bench-search's
	 * database on one core, 11 MB resident for the whole process.  The triggers of migrations 5 and 8 name the
	 * table, not its tokenizer, and stay.
	 */
	"DROP TABLE message_fts;"
	"CREATE VIRTUAL TABLE message_fts USING fts5(text, content = 'message',"
	"  content_rowid = 'rowid', tokenize = '" STORE_TOK_NAME "',"
	"  prefix = '1 2');"
	"INSERT INTO message_fts (rowid, text) SELECT rowid, text FROM message"
	"  WHERE deleted = 0 AND kind IN (0, 1) AND text != ''"
	"  AND rowid NOT IN (SELECT rowid FROM fts_pending) ORDER BY rowid;"
	"INSERT INTO message_fts (message_fts) VALUES ('optimize');",
	/*
	 * 13: per chat, the input line left unsent (draft, UTF-8, kept
	 * across restarts) and peek (reading it sends no read receipt: 0
	 * as the peek setting, 1 on, 2 off; issue 17 points 10 and 14).
	 */
	"ALTER TABLE chat ADD COLUMN draft TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE chat ADD COLUMN peek INTEGER NOT NULL DEFAULT 0;",
	/*
	 * 14: app state sync (store/appstate.c, store/store-appstate.h;
	 * protocol-features.md 2).  as_key: the app-state sync keys by id
	 * (keyData, the fingerprint's bytes, the key's timestamp).
	 * as_state: per collection its version and 128-byte LTHash; as_mac
	 * its live records' index MAC -> value MAC.  as_raw: actions wachat
	 * does not read, kept by (collection, index JSON) as their
	 * SyncActionData bytes.  as_pending: our own mutations until the
	 * server takes them (state 0 queued, 1 sent, 2 failed).  as_setting:
	 * settings app state carries that wachat reads ('push_name').  New
	 * columns: contact.first_name, chat.marked_unread and chat.locked,
	 * message.starred (with an index of the starred rows, which a
	 * clearChat keeps).
	 */
	"CREATE TABLE as_key ("
	"  id BLOB PRIMARY KEY NOT NULL, data BLOB NOT NULL,"
	"  fp BLOB NOT NULL DEFAULT x'', ts_ms INTEGER NOT NULL) WITHOUT ROWID;"
	"CREATE TABLE as_state ("
	"  collection TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL,"
	"  hash BLOB NOT NULL CHECK (length(hash) = 128)) WITHOUT ROWID;"
	"CREATE TABLE as_mac ("
	"  collection TEXT NOT NULL, index_mac BLOB NOT NULL,"
	"  value_mac BLOB NOT NULL,"
	"  PRIMARY KEY (collection, index_mac)) WITHOUT ROWID;"
	"CREATE TABLE as_raw ("
	"  collection TEXT NOT NULL, idx BLOB NOT NULL, data BLOB NOT NULL,"
	"  PRIMARY KEY (collection, idx)) WITHOUT ROWID;"
	"CREATE TABLE as_pending ("
	"  id INTEGER PRIMARY KEY AUTOINCREMENT, collection TEXT NOT NULL,"
	"  action BLOB NOT NULL, idx BLOB NOT NULL,"
	"  state INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL);"
	"CREATE TABLE as_setting ("
	"  name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL,"
	"  ts_ms INTEGER NOT NULL) WITHOUT ROWID;"
	"ALTER TABLE contact ADD COLUMN first_name TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE chat ADD COLUMN marked_unread INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE chat ADD COLUMN locked INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE message ADD COLUMN starred INTEGER NOT NULL DEFAULT 0;"
	"CREATE INDEX message_starred ON message (chat) WHERE starred = 1;",
	/*
	 * 15: media (store/media.c; protocol-features.md 1.6): per message
	 * row (msg = its rowid) the type (enum store_media_type), what the
	 * screen shows (mimetype, size in bytes, pixels, seconds, pages,
	 * caption, file name, inline thumbnail, waveform) and what a
	 * download needs (media key, direct path, URL, both SHA-256s, the
	 * key's time in unix s); the download state (enum store_dl_state)
	 * and the file's local path once downloaded; the upload state of
	 * our own sends (enum store_ul_state).  A deleted or revoked
	 * message takes its media row with it; an edit's text becomes its
	 * caption.  The message's text stays what the search
	 * index reads: the caption, after a document's file name.
	 */
	"CREATE TABLE media ("
	"  msg INTEGER PRIMARY KEY NOT NULL, type INTEGER NOT NULL,"
	"  animated INTEGER NOT NULL DEFAULT 0,"
	"  mimetype TEXT NOT NULL DEFAULT '', size INTEGER NOT NULL DEFAULT 0,"
	"  width INTEGER NOT NULL DEFAULT 0, height INTEGER NOT NULL DEFAULT 0,"
	"  seconds INTEGER NOT NULL DEFAULT 0, pages INTEGER NOT NULL DEFAULT 0,"
	"  caption TEXT NOT NULL DEFAULT '', file_name TEXT NOT NULL DEFAULT '',"
	"  thumb BLOB, waveform BLOB, media_key BLOB,"
	"  direct_path TEXT NOT NULL DEFAULT '', url TEXT NOT NULL DEFAULT '',"
	"  file_sha256 BLOB, file_enc_sha256 BLOB,"
	"  key_ts INTEGER NOT NULL DEFAULT 0,"
	"  dl_state INTEGER NOT NULL DEFAULT 0, path TEXT NOT NULL DEFAULT '',"
	"  ul_state INTEGER NOT NULL DEFAULT 0);"
	"CREATE TRIGGER media_delete AFTER DELETE ON message BEGIN"
	"  DELETE FROM media WHERE msg = old.rowid;"
	"END;"
	"CREATE TRIGGER media_revoke AFTER UPDATE OF deleted ON message"
	"  WHEN new.deleted = 1 BEGIN"
	"  DELETE FROM media WHERE msg = new.rowid;"
	"END;"
	"CREATE TRIGGER media_edit AFTER UPDATE OF edited ON message"
	"  WHEN new.deleted = 0 BEGIN"
	"  UPDATE media SET caption = new.text WHERE msg = new.rowid;"
	"END;",
	/*
	 * 16: stars that came before their message (store/appstate-act.c):
	 * app state is fetched at login, the phone's history after it, so
	 * a star names a message not stored yet.  Kept by (chat, from_me,
	 * id) until that message is stored; the trigger stars it then
	 * (one probe of a table that is nearly always empty per insert).
	 */
	"CREATE TABLE star_pending ("
	"  chat TEXT NOT NULL, from_me INTEGER NOT NULL, id TEXT NOT NULL,"
	"  PRIMARY KEY (chat, from_me, id)) WITHOUT ROWID;"
	"CREATE TRIGGER star_pending_apply AFTER INSERT ON message"
	"  WHEN EXISTS (SELECT 1 FROM star_pending WHERE chat = new.chat"
	"  AND from_me = new.from_me AND id = new.id) BEGIN"
	"  UPDATE message SET starred = 1 WHERE rowid = new.rowid;"
	"  DELETE FROM star_pending WHERE chat = new.chat"
	"  AND from_me = new.from_me AND id = new.id;"
	"END;",
	/*
	 * 17: polls (store/poll.c; protocol-features.md 3.1): per poll row
	 * (chat, id) its creator (user JID, "" ours) and messageSecret,
	 * which decrypt its votes; the tally is the row's rich record.
	 * Votes that came before their poll or its secret wait in
	 * poll_pending (each as the engine gave it, opaque) until the
	 * poll is stored.  A deleted poll row takes its secret with it.
	 */
	"CREATE TABLE poll ("
	"  chat TEXT NOT NULL, id TEXT NOT NULL, creator TEXT NOT NULL,"
	"  secret BLOB NOT NULL,"
	"  PRIMARY KEY (chat, id)) WITHOUT ROWID;"
	"CREATE TABLE poll_pending ("
	"  chat TEXT NOT NULL, poll TEXT NOT NULL, voter TEXT NOT NULL,"
	"  data BLOB NOT NULL, ts_ms INTEGER NOT NULL,"
	"  PRIMARY KEY (chat, poll, voter)) WITHOUT ROWID;"
	"CREATE TRIGGER poll_delete AFTER DELETE ON message"
	"  WHEN old.kind = 7 BEGIN"
	"  DELETE FROM poll WHERE chat = old.chat AND id = old.id;"
	"END;",
	/*
	 * 18: a forwarded message (protocol-features.md 3.7, issue 20):
	 * 0 not forwarded, else the forwardingScore its contextInfo carried
	 * (at least 1 when isForwarded came without a score), for the
	 * "forwarded" of its header and the score a forward of it
	 * increments.
	 */
	"ALTER TABLE message ADD COLUMN forwarded INTEGER NOT NULL DEFAULT 0;",
	/*
	 * 19: disappearing messages (store/ephem.c; protocol-features.md
	 * 3.5).  chat.ephemeral_s: the chat's timer in seconds (0 off),
	 * ephemeral_ts the unix second it was set.  message.expire_s: the
	 * unix second the row goes (0 never): a row stored while its
	 * chat's timer is on, its time at or after the setting, takes its
	 * time + the timer (a notice or a hidden protocol row never
	 * expires); rows stored before this migration never expire.
	 */
	"ALTER TABLE chat ADD COLUMN ephemeral_s INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE chat ADD COLUMN ephemeral_ts INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE message ADD COLUMN expire_s INTEGER NOT NULL DEFAULT 0;"
	"CREATE INDEX message_expire ON message (expire_s) WHERE expire_s > 0;"
	"CREATE TRIGGER message_expire_set AFTER INSERT ON message"
	"  WHEN new.kind NOT IN (2, 5) AND EXISTS (SELECT 1 FROM chat"
	"  WHERE jid = new.chat AND ephemeral_s > 0"
	"  AND new.ts_ms >= ephemeral_ts * 1000) BEGIN"
	"  UPDATE message SET expire_s = new.ts_ms / 1000 + (SELECT"
	"    ephemeral_s FROM chat WHERE jid = new.chat)"
	"  WHERE rowid = new.rowid;"
	"END;",
	/*
	 * 20: when each recipient's devices said our message was delivered
	 * and read (store/rtime.c, issue 20's message info): per (chat,
	 * message id, member user JID) the first delivery and read time,
	 * ms (0 not yet); a 1:1 message's member is the contact.  The tick
	 * stays the message's state; these rows go with the message.
	 */
	"CREATE TABLE receipt_time ("
	"  chat TEXT NOT NULL, id TEXT NOT NULL, member TEXT NOT NULL,"
	"  delivered_ms INTEGER NOT NULL DEFAULT 0,"
	"  read_ms INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (chat, id, member)) WITHOUT ROWID;"
	"CREATE TRIGGER receipt_time_delete AFTER DELETE ON message"
	"  WHEN old.from_me = 1 BEGIN"
	"  DELETE FROM receipt_time WHERE chat = old.chat AND id = old.id;"
	"END;",
};

#define NMIGRATIONS	((int)(sizeof(migrations) / sizeof(migrations[0])))

_Static_assert(NMIGRATIONS == STORE_SCHEMA_VERSION,
    "STORE_SCHEMA_VERSION must name the newest migration");

/*
 * What migration N made, as a query that returns a row when it is there:
 * a schema of version v has the mark of migration v and not that of
 * v + 1.  A user_version in the file header that says otherwise was
 * damaged, not written by a wachat.  Append one with each migration.
 */
static const char *const marks[] = {
	"SELECT 1 FROM sqlite_master WHERE name = 'device'",
	"SELECT 1 FROM sqlite_master WHERE name = 'session'",
	"SELECT 1 FROM sqlite_master WHERE name = 'chat'",
	"SELECT 1 FROM sqlite_master WHERE name = 'grp'",
	"SELECT 1 FROM sqlite_master WHERE name = 'message_fts'",
	"SELECT 1 FROM sqlite_master WHERE name = 'hist_queue'",
	"SELECT 1 FROM pragma_table_info('hist_queue') WHERE name = 'imported'",
	"SELECT 1 FROM sqlite_master WHERE name = 'message_fts_insert'"
	"  AND instr(sql, 'INSERT INTO message_fts ') = 0",
	"SELECT 1 FROM sqlite_master WHERE name = 'member_receipt'",
	"SELECT 1 FROM pragma_table_info('device') WHERE name = 'unconfirmed'",
	"SELECT 1 FROM sqlite_master WHERE name = 'privtok'",
	"SELECT 1 FROM sqlite_master WHERE name = 'message_fts'"
	"  AND instr(sql, '" STORE_TOK_NAME "') > 0",
	"SELECT 1 FROM pragma_table_info('chat') WHERE name = 'peek'",
	"SELECT 1 FROM sqlite_master WHERE name = 'as_pending'",
	"SELECT 1 FROM sqlite_master WHERE name = 'media'",
	"SELECT 1 FROM sqlite_master WHERE name = 'star_pending'",
	"SELECT 1 FROM sqlite_master WHERE name = 'poll_pending'",
	"SELECT 1 FROM pragma_table_info('message') WHERE name = 'forwarded'",
	"SELECT 1 FROM sqlite_master WHERE name = 'message_expire_set'",
	"SELECT 1 FROM sqlite_master WHERE name = 'receipt_time'",
};

_Static_assert(sizeof(marks) / sizeof(marks[0]) == NMIGRATIONS,
    "each migration needs its mark");

/*
 * Every migration also writes the version it brings the schema to into
 * the counter table, in its transaction (a copy in the database's pages,
 * which the header's user_version is not): a newer wachat's database has
 * the two equal.  Keep writing it in every later migration.
 */
#define SCHEMA_COPY	"schema_version"

int
store_step_err(struct store *s, int rc)
{
	/* SQLite says SQLITE_FULL for a write that got ENOSPC (or a short
	 * write); growing the shared-memory index or a temp file can fail
	 * as an I/O error whose errno is ENOSPC. */
	if ((rc & 0xff) == SQLITE_FULL || ((rc & 0xff) == SQLITE_IOERR &&
	    sqlite3_system_errno(s->db) == ENOSPC))
		return -ENOSPC;
	return -EIO;
}

int
store_exec(struct store *s, const char *sql)
{
	char	*msg = NULL;
	int	 rc;

	if ((rc = sqlite3_exec(s->db, sql, NULL, NULL, &msg)) != SQLITE_OK) {
		log_error("%s", msg != NULL ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return store_step_err(s, rc);
	}
	return 0;
}

int
store_prepare(struct store *s, sqlite3_stmt **st, const char *sql)
{
	if (*st != NULL) {
		sqlite3_reset(*st);
		sqlite3_clear_bindings(*st);
		return 0;
	}
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
	    NULL) != SQLITE_OK) {
		log_error("%s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	return 0;
}

int
store_stmt(struct store *s, const char *sql, sqlite3_stmt **st)
{
	struct store_cached	*c;
	size_t			 i;

	/* Callers pass the same literal each time: find it by its pointer
	 * first (one strcmp to confirm), and only then by text, comparing
	 * every cached statement (many share long prefixes). */
	for (i = 0; i < s->ncache; i++) {
		c = &s->cache[i];
		if (c->seen == sql && !c->busy && strcmp(c->sql, sql) == 0)
			goto hit;
	}
	for (i = 0; i < s->ncache; i++) {
		c = &s->cache[i];
		if (!c->busy && strcmp(c->sql, sql) == 0)
			goto hit;
	}
	if (sqlite3_prepare_v3(s->db, sql, -1, s->ncache < STORE_STMT_CACHE ?
	    SQLITE_PREPARE_PERSISTENT : 0, st, NULL) != SQLITE_OK) {
		log_error("%s", sqlite3_errmsg(s->db));
		*st = NULL;
		return -EIO;
	}
	if (s->ncache < STORE_STMT_CACHE) {
		c = &s->cache[s->ncache++];
		c->sql = xstrdup(sql);
		c->seen = sql;
		c->st = *st;
		c->busy = 1;
	}
	return 0;
hit:
	c->busy = 1;
	c->seen = sql;
	*st = c->st;
	return 0;
}

void
store_stmt_done(struct store *s, sqlite3_stmt *st)
{
	size_t	 i;

	if (st == NULL)
		return;
	for (i = 0; i < s->ncache; i++)
		if (s->cache[i].st == st) {
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			s->cache[i].busy = 0;
			return;
		}
	sqlite3_finalize(st);
}

int
store_run(struct store *s, const char *sql, int quiet)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (store_stmt(s, sql, &st) != 0)
		return -EIO;
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW && !quiet)
		log_error("%s: %s", sql, sqlite3_errmsg(s->db));
	store_stmt_done(s, st);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
	return store_step_err(s, rc);
}

static int
user_version(struct store *s, int *v)
{
	sqlite3_stmt	*st;
	int		 rc = -EIO;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) !=
	    SQLITE_OK)
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* The result of the one-row query sql: 1 a row, 0 none, or an error of
 * store_db_error(). */
static int
has_row(struct store *s, const char *sql, int64_t *value)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return store_db_error(s);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && value != NULL)
		*value = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc == SQLITE_ROW;
	return store_db_error(s);
}

/* Whether the schema is that of version v by its marks: 0, 1 not, or an
 * error. */
static int
marks_differ(struct store *s, int v)
{
	int	 rc;

	if (v > NMIGRATIONS)
		v = NMIGRATIONS;	/* a newer one has all of ours */
	if (v > 0 && (rc = has_row(s, marks[v - 1], NULL)) != 1)
		return rc == 0 ? 1 : rc;
	if (v < NMIGRATIONS && (rc = has_row(s, marks[v], NULL)) != 0)
		return rc == 1 ? 1 : rc;
	return 0;
}

int
store_schema_check(struct store *s, int v)
{
	int64_t	 copy = -1;
	int	 rc, has;

	if (v < 0) {	/* never written so */
		log_warn("the schema version in the header is %d: damaged", v);
		return WC_EDBMALFORMED;
	}
	if ((rc = marks_differ(s, v)) < 0)
		return rc;
	if (rc == 1) {
		log_warn("the schema version in the header is %d, but the "
		    "tables are not of that version: the header is damaged", v);
		return WC_EDBMALFORMED;
	}
	if (v == 0)	/* a new database: nothing in it yet */
		return 0;
	if ((has = has_row(s, "SELECT value FROM counter WHERE name = '"
	    SCHEMA_COPY "'", &copy)) < 0)
		return has == -EIO ? WC_EDBMALFORMED : has;
	if ((has == 1 && copy != v) || (has == 0 && v > NMIGRATIONS)) {
		log_warn("the schema version in the header is %d, its copy "
		    "in the counter table %lld: the header is damaged", v,
		    (long long)copy);
		return WC_EDBMALFORMED;
	}
	return v > NMIGRATIONS ? WC_ESCHEMA : 0;
}

static int
migrate(struct store *s)
{
	char	 sql[128];
	int	 v, i, rc;

	if ((rc = user_version(s, &v)) != 0)
		return rc;
	if ((rc = store_schema_check(s, v)) != 0)
		return rc;
	if (v == STORE_SCHEMA_VERSION)
		return 0;
	if ((rc = store_exec(s, "BEGIN IMMEDIATE")) != 0)
		return rc;
	for (i = v; i < NMIGRATIONS; i++)
		if ((rc = store_exec(s, migrations[i])) != 0)
			goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d;"
	    "INSERT OR REPLACE INTO counter (name, value) VALUES ('"
	    SCHEMA_COPY "', %d)", STORE_SCHEMA_VERSION, STORE_SCHEMA_VERSION);
	if ((rc = store_exec(s, sql)) != 0 || (rc = store_exec(s, "COMMIT")) != 0)
		goto fail;
	return 0;
fail:
	(void)store_exec(s, "ROLLBACK");
	return rc;
}

/* A path exists with no group or other permission, or is created so. */
static int
check_mode(const char *path, bool dir)
{
	struct stat	 st;

	if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			return -errno;
		if (!dir)
			return 0;	/* SQLite creates it under our umask */
		if (mkdir(path, 0700) != 0 && errno != EEXIST)
			return -errno;
		return stat(path, &st) == 0 && (st.st_mode & 077) == 0 ? 0 :
		    -EPERM;
	}
	if (dir != S_ISDIR(st.st_mode))
		return dir ? -ENOTDIR : -EISDIR;
	if ((st.st_mode & 077) != 0) {
		log_warn("%s is open to other users (mode %03o); "
		    "refusing to use it (chmod %s %s)", path,
		    (unsigned)(st.st_mode & 0777), dir ? "700" : "600", path);
		return -EPERM;
	}
	return 0;
}

/*
 * Why SQLite opened path read-only although asked for read-write: a
 * read-only file system (-EROFS) or no write permission (-EACCES).
 */
static int
why_read_only(const char *path)
{
	struct statvfs	 vfs;

	if (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_RDONLY) != 0)
		return -EROFS;
	return -EACCES;
}

/*
 * What the connection's last failure says about the database, as an error
 * of store/backup.h: damaged (not a database, malformed), full, read-only,
 * not permitted, interrupted, or -EIO for anything else.
 */
int
store_db_error(struct store *s)
{
	switch (sqlite3_extended_errcode(s->db) & 0xff) {
	case SQLITE_NOTADB:
		return WC_EDBNOTDB;
	case SQLITE_CORRUPT:
		return WC_EDBMALFORMED;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_READONLY:	/* also a directory we may not write in */
		return sqlite3_db_filename(s->db, "main") != NULL ?
		    why_read_only(sqlite3_db_filename(s->db, "main")) : -EROFS;
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_CANTOPEN:
		return sqlite3_system_errno(s->db) != 0 ?
		    -sqlite3_system_errno(s->db) : -EIO;
	case SQLITE_INTERRUPT:
		return -EINTR;
	default:	/* an I/O error that was ENOSPC is a full disk too */
		return store_step_err(s, sqlite3_extended_errcode(s->db));
	}
}

/* The file as it is before SQLite opens it: an empty (0 byte) database
 * is refused, never taken for a new one. */
int
store_db_precheck(const char *path)
{
	static const char	 magic[16] = "SQLite format 3";
	char			 head[16];
	struct stat		 st;
	ssize_t			 n;
	int			 fd;

	if (stat(path, &st) != 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISREG(st.st_mode))
		return 0;
	if (st.st_size == 0)
		return WC_EDBEMPTY;
	/* A damaged header is told before SQLite opens it: SQLite would
	 * take the file for an empty database and drop its WAL at close. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	n = read(fd, head, sizeof(head));
	(void)close(fd);
	if (n != (ssize_t)sizeof(head) || memcmp(head, magic,
	    sizeof(head)) != 0)
		return WC_EDBNOTDB;
	return 0;
}

void
store_keep_as_is(struct store *s)
{
	if (s != NULL && s->db != NULL)
		(void)sqlite3_db_config(s->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
		    1, (int *)NULL);
}

/* The pragmas, the schema read in full (a damaged schema page is found
 * now, not at the first statement), the migrations. */
static int
db_setup(struct store *s, const char *path)
{
	int	 rc;

	if (path != NULL && sqlite3_db_readonly(s->db, "main") == 1)
		return why_read_only(path);
	if (store_exec(s, "PRAGMA journal_mode = WAL;"
	    "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;") != 0 ||
	    store_exec(s, "SELECT count(*) FROM sqlite_master") != 0)
		return store_db_error(s);
	if ((rc = store_tok_register(s->db)) != 0)
		return rc;
	if ((rc = migrate(s)) == -EIO)
		rc = store_db_error(s);
	return rc;
}

/* A database this open created and could not set up holds nothing:
 * removed with its -wal and -shm, so that the next start does not find
 * an empty file and take it for a damaged one. */
static void
unlink_new(const char *path)
{
	size_t	 len = strlen(path) + 8;
	char	*p = xmalloc(len);

	(void)unlink(path);
	snprintf(p, len, "%s-wal", path);
	(void)unlink(p);
	snprintf(p, len, "%s-shm", path);
	(void)unlink(p);
	free(p);
}

/* sqlite3_open_v2() failed: why, in the terms of store_db_error(). */
static int
open_error(struct store *s, const char *dir)
{
	int	 rc = s->db != NULL ? store_db_error(s) : -ENOMEM;

	if (dir != NULL && access(dir, W_OK) != 0 &&
	    (errno == EROFS || errno == EACCES))
		return why_read_only(dir);
	return rc;
}

int
store_db_open(const char *dir, struct store **out)
{
	struct store	*s;
	struct stat	 st;
	char		*path = NULL;
	mode_t		 old;
	bool		 existed = true;
	int		 rc, flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX;

	if (dir != NULL && strcmp(dir, ":memory:") != 0) {
		size_t	 len = strlen(dir) + sizeof("/wachat.db");

		if ((rc = check_mode(dir, true)) != 0)
			return rc;
		path = xmalloc(len);
		snprintf(path, len, "%s/wachat.db", dir);
		if ((rc = check_mode(path, false)) != 0 ||
		    (rc = store_db_precheck(path)) != 0) {
			free(path);
			return rc;
		}
		existed = stat(path, &st) == 0;
	}
	s = xcalloc(1, sizeof(*s));
	old = umask(077);	/* the database, its WAL and SHM files: 0600 */
	rc = sqlite3_open_v2(path != NULL ? path : ":memory:", &s->db, flags,
	    NULL);
	umask(old);
	if (rc != SQLITE_OK)
		rc = open_error(s, path != NULL ? dir : NULL);
	else {
		sqlite3_extended_result_codes(s->db, 1);
		sqlite3_busy_timeout(s->db, 5000);
		rc = db_setup(s, path);
	}
	if (rc != 0) {
		store_keep_as_is(s);
		store_close(s);
		if (!existed)
			unlink_new(path);
		free(path);
		return rc;
	}
	free(path);
	*out = s;
	return 0;
}

int
store_schema_version(struct store *s)
{
	int	 v = -1;

	return user_version(s, &v) == 0 ? v : -EIO;
}

void
store_close(struct store *s)
{
	size_t	 i;

	if (s == NULL)
		return;
	for (i = 0; i < sizeof(s->st) / sizeof(s->st[0]); i++)
		sqlite3_finalize(s->st[i]);
	for (i = 0; i < s->ncache; i++) {
		sqlite3_finalize(s->cache[i].st);
		free(s->cache[i].sql);
	}
	sqlite3_close(s->db);
	free(s);
}
