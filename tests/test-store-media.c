/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-media.c -- a message's media in the store (migration
 * 15, store/media.c): stored with its row in one savepoint, read back by
 * the message's key, the download and upload states, what the limits
 * refuse, a deleted message's media gone, the search index reading the
 * caption and a document's file name, the chat list's last_media, the
 * history import, a placeholder filled with media, and the migration
 * from schema 14 keeping every row.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "base/xmalloc.h"
#include "store-test.h"

#define BOB	"15550000003@s.whatsapp.net"

static uint8_t	 key[32], sha[32], enc[32], thumb[100], wave[64];

static struct store_media
doc(void)
{
	struct store_media	 m;

	memset(&m, 0, sizeof(m));
	memset(key, 7, sizeof(key));
	memset(sha, 8, sizeof(sha));
	memset(enc, 9, sizeof(enc));
	memset(thumb, 0xd8, sizeof(thumb));
	m.type = STORE_MEDIA_DOCUMENT;
	m.mimetype = (char *)"application/pdf";
	m.size = 2500000;
	m.pages = 12;
	m.caption = (char *)"for Monday";
	m.file_name = (char *)"report.pdf";
	m.thumb = thumb;
	m.thumb_len = sizeof(thumb);
	m.media_key = key;
	m.media_key_len = 32;
	m.file_sha256 = sha;
	m.file_sha256_len = 32;
	m.file_enc_sha256 = enc;
	m.file_enc_sha256_len = 32;
	m.direct_path = (char *)"/v/t62/x.enc?ccb=11-4";
	m.url = (char *)"https://mmg.whatsapp.net/v/t62/x.enc";
	m.key_ts = 1733000000;
	return m;
}

static struct store_msg_new
row(const char *id, const char *text, const struct store_media *md)
{
	struct store_msg_new	 n;

	memset(&n, 0, sizeof(n));
	n.chat = BOB;
	n.id = id;
	n.sender = "";
	n.ts_ms = 1000;
	n.kind = md != NULL ? STORE_MSG_MEDIA : STORE_MSG_TEXT;
	n.text = text;
	n.text_len = strlen(text);
	n.state = STORE_MSG_RECEIVED;
	n.media = md;
	return n;
}

static void
test_store_media__put_with_the_row_and_read_back(void **state)
{
	struct store		*s = open_mem();
	struct store_media	 m = doc(), got;
	struct store_msg_new	 n = row("D1", "report.pdf\nfor Monday", &m);
	struct store_chat_list	 l;

	(void)state;
	assert_int_equal(store_msg_insert_incoming(s, &n, NULL), 0);
	assert_int_equal(store_media_get(s, BOB, false, "D1", &got), 1);
	assert_int_equal(got.type, STORE_MEDIA_DOCUMENT);
	assert_string_equal(got.mimetype, "application/pdf");
	assert_int_equal(got.size, 2500000);
	assert_int_equal(got.pages, 12);
	assert_string_equal(got.caption, "for Monday");
	assert_string_equal(got.file_name, "report.pdf");
	assert_int_equal(got.thumb_len, sizeof(thumb));
	assert_memory_equal(got.thumb, thumb, sizeof(thumb));
	assert_int_equal(got.media_key_len, 32);
	assert_memory_equal(got.media_key, key, 32);
	assert_memory_equal(got.file_sha256, sha, 32);
	assert_memory_equal(got.file_enc_sha256, enc, 32);
	assert_string_equal(got.direct_path, "/v/t62/x.enc?ccb=11-4");
	assert_string_equal(got.url, "https://mmg.whatsapp.net/v/t62/x.enc");
	assert_int_equal(got.key_ts, 1733000000);
	assert_null(got.waveform);
	assert_int_equal(got.dl_state, STORE_DL_NONE);
	assert_string_equal(got.path, "");
	assert_int_equal(got.ul_state, STORE_UL_NONE);
	store_media_release(&got);
	/* another key, or the other direction: none */
	assert_int_equal(store_media_get(s, BOB, true, "D1", &got), 0);
	assert_int_equal(store_media_get(s, BOB, false, "D2", &got), 0);
	/* the search reads the caption and the file name */
	assert_int_equal(hits(s, "Monday"), 1);
	assert_int_equal(hits(s, "report"), 1);
	/* the chat list names its type */
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.chats[0].last_kind, STORE_MSG_MEDIA);
	assert_int_equal(l.chats[0].last_media, STORE_MEDIA_DOCUMENT);
	store_chat_list_free(&l);
	/* a duplicate changes nothing */
	m.caption = (char *)"other";
	assert_int_equal(store_msg_insert_incoming(s, &n, NULL), 1);
	assert_int_equal(store_media_get(s, BOB, false, "D1", &got), 1);
	assert_string_equal(got.caption, "for Monday");
	store_media_release(&got);
	store_close(s);
}

static void
test_store_media__download_and_upload_states(void **state)
{
	struct store		*s = open_mem();
	struct store_media	 m = doc(), got;
	struct store_msg_new	 n = row("D1", "report.pdf", &m);
	struct store_msg_new	 t = row("T1", "just text", NULL);

	(void)state;
	assert_int_equal(store_msg_insert_incoming(s, &n, NULL), 0);
	assert_int_equal(store_msg_insert_incoming(s, &t, NULL), 0);
	assert_int_equal(store_media_set_download(s, BOB, false, "D1",
	    STORE_DL_DOWNLOADING, NULL), 1);
	assert_int_equal(store_media_get(s, BOB, false, "D1", &got), 1);
	assert_int_equal(got.dl_state, STORE_DL_DOWNLOADING);
	store_media_release(&got);
	assert_int_equal(store_media_set_download(s, BOB, false, "D1",
	    STORE_DL_DONE, "/home/a/.local/share/wachat/media/report.pdf"), 1);
	assert_int_equal(store_media_get(s, BOB, false, "D1", &got), 1);
	assert_int_equal(got.dl_state, STORE_DL_DONE);
	assert_string_equal(got.path,
	    "/home/a/.local/share/wachat/media/report.pdf");
	store_media_release(&got);
	/* expired: the path goes */
	assert_int_equal(store_media_set_download(s, BOB, false, "D1",
	    STORE_DL_EXPIRED, ""), 1);
	assert_int_equal(store_media_get(s, BOB, false, "D1", &got), 1);
	assert_int_equal(got.dl_state, STORE_DL_EXPIRED);
	assert_string_equal(got.path, "");
	store_media_release(&got);
	/* refused: done without a path, a path with another state, a bad
	 * state */
	assert_int_equal(store_media_set_download(s, BOB, false, "D1",
	    STORE_DL_DONE, NULL), -EINVAL);
	assert_int_equal(store_media_set_download(s, BOB, false, "D1",
	    STORE_DL_FAILED, "/x"), -EINVAL);
	assert_int_equal(store_media_set_download(s, BOB, false, "D1",
	    (enum store_dl_state)9, NULL), -EINVAL);
	/* a message without media, an unknown one: 0 */
	assert_int_equal(store_media_set_download(s, BOB, false, "T1",
	    STORE_DL_FAILED, NULL), 0);
	assert_int_equal(store_media_set_download(s, BOB, false, "none",
	    STORE_DL_FAILED, NULL), 0);
	assert_int_equal(store_media_get(s, BOB, false, "T1", &got), 0);
	/* upload: our own rows only */
	assert_int_equal(store_media_set_upload(s, BOB, "D1",
	    STORE_UL_UPLOADING), 0);
	assert_int_equal(store_media_set_upload(s, BOB, "D1",
	    (enum store_ul_state)7), -EINVAL);
	store_close(s);
}

/* The media retry's new direct path (1.8) replaces the old one and the
 * URL that named it; at a start the rows left downloading are reset. */
static void
test_store_media__retry_path_and_reset_at_start(void **state)
{
	struct store		*s = open_mem();
	struct store_media	 m = doc(), got;
	struct store_msg_new	 n = row("D1", "report.pdf", &m);
	struct store_msg_new	 n2 = row("D2", "report.pdf", &m);
	struct store_msg_new	 t = row("T1", "just text", NULL);

	(void)state;
	assert_int_equal(store_msg_insert_incoming(s, &n, NULL), 0);
	assert_int_equal(store_msg_insert_incoming(s, &n2, NULL), 0);
	assert_int_equal(store_msg_insert_incoming(s, &t, NULL), 0);
	assert_int_equal(store_media_set_direct_path(s, BOB, false, "D1",
	    "/v/t62/again.enc?ccb=11-4"), 1);
	assert_int_equal(store_media_get(s, BOB, false, "D1", &got), 1);
	assert_string_equal(got.direct_path, "/v/t62/again.enc?ccb=11-4");
	assert_string_equal(got.url, "");
	assert_memory_equal(got.media_key, key, 32);
	store_media_release(&got);
	/* the other message keeps its own */
	assert_int_equal(store_media_get(s, BOB, false, "D2", &got), 1);
	assert_string_equal(got.direct_path, "/v/t62/x.enc?ccb=11-4");
	store_media_release(&got);
	/* refused: empty, relative, NULL; none: no media, no message */
	assert_int_equal(store_media_set_direct_path(s, BOB, false, "D1", ""),
	    -EINVAL);
	assert_int_equal(store_media_set_direct_path(s, BOB, false, "D1",
	    "v/t62/x"), -EINVAL);
	assert_int_equal(store_media_set_direct_path(s, BOB, false, "D1",
	    NULL), -EINVAL);
	assert_int_equal(store_media_set_direct_path(s, BOB, false, "T1",
	    "/v/x"), 0);
	assert_int_equal(store_media_set_direct_path(s, BOB, true, "D1",
	    "/v/x"), 0);
	/* reset: only the downloading rows, each to none */
	assert_int_equal(store_media_dl_reset(s), 0);
	assert_int_equal(store_media_set_download(s, BOB, false, "D1",
	    STORE_DL_DOWNLOADING, NULL), 1);
	assert_int_equal(store_media_set_download(s, BOB, false, "D2",
	    STORE_DL_CORRUPT, NULL), 1);
	assert_int_equal(store_media_dl_reset(s), 1);
	assert_int_equal(store_media_get(s, BOB, false, "D1", &got), 1);
	assert_int_equal(got.dl_state, STORE_DL_NONE);
	store_media_release(&got);
	assert_int_equal(store_media_get(s, BOB, false, "D2", &got), 1);
	assert_int_equal(got.dl_state, STORE_DL_CORRUPT);
	store_media_release(&got);
	assert_int_equal(store_media_dl_reset(s), 0);
	store_close(s);
}

static void
test_store_media__limits_refuse_and_store_nothing(void **state)
{
	struct store		*s = open_mem();
	struct store_media	 m = doc(), got;
	struct store_msg_new	 n = row("D1", "x", &m);
	uint8_t			*big = xcalloc(1, STORE_MEDIA_THUMB_MAX + 1);

	(void)state;
	m.thumb = big;
	m.thumb_len = STORE_MEDIA_THUMB_MAX + 1;
	assert_int_equal(store_msg_insert_incoming(s, &n, NULL), -EINVAL);
	m = doc();
	m.type = (enum store_media_type)0;
	assert_int_equal(store_msg_insert_incoming(s, &n, NULL), -EINVAL);
	m = doc();
	n.kind = STORE_MSG_TEXT;	/* media only on a media row */
	assert_int_equal(store_msg_insert_incoming(s, &n, NULL), -EINVAL);
	assert_int_equal(store_media_get(s, BOB, false, "D1", &got), 0);
	assert_int_equal(store_media_get(s, NULL, false, "D1", &got), -EINVAL);
	free(big);
	store_close(s);
}

static void
test_store_media__goes_with_its_message(void **state)
{
	struct store		*s = open_mem();
	struct store_media	 m = doc(), got;
	struct store_msg_new	 n = row("D1", "x", &m);
	uint8_t			 p = 1;

	(void)state;
	/* our own failed send, deleted: its media row too */
	n.from_me = true;
	n.payload = &p;
	n.payload_len = 1;
	assert_int_equal(store_msg_insert_outgoing(s, &n, NULL), 0);
	assert_int_equal(store_media_set_upload(s, BOB, "D1",
	    STORE_UL_FAILED), 1);
	assert_int_equal(store_media_get(s, BOB, true, "D1", &got), 1);
	assert_int_equal(got.ul_state, STORE_UL_FAILED);
	store_media_release(&got);
	assert_int_equal(store_msg_mark_failed(s, BOB, "D1"), 1);
	assert_int_equal(store_msg_delete_failed(s, BOB, "D1"), 1);
	assert_int_equal(store_media_get(s, BOB, true, "D1", &got), 0);
	store_close(s);
}

static void
test_store_media__revoke_drops_it_and_an_edit_is_its_caption(void **state)
{
	struct store		*s = open_mem();
	struct store_media	 m = doc(), got;
	struct store_msg_new	 a = row("D1", "x", &m), b = row("D2", "y", &m);

	(void)state;
	m.type = STORE_MEDIA_IMAGE;
	assert_int_equal(store_msg_insert_incoming(s, &a, NULL), 0);
	assert_int_equal(store_msg_insert_incoming(s, &b, NULL), 0);
	assert_int_equal(store_msg_edit(s, BOB, false, "D1", "new words", 9,
	    2000), 1);
	assert_int_equal(store_media_get(s, BOB, false, "D1", &got), 1);
	assert_string_equal(got.caption, "new words");
	assert_memory_equal(got.media_key, key, 32);
	store_media_release(&got);
	assert_int_equal(store_msg_revoke(s, BOB, false, "D2"), 1);
	assert_int_equal(store_media_get(s, BOB, false, "D2", &got), 0);
	store_close(s);
}

static void
test_store_media__history_import_and_placeholder(void **state)
{
	struct store		*s = open_mem();
	struct store_media	 m = doc(), got;
	struct store_msg_new	 h = row("H1", "report.pdf", &m), p;

	(void)state;
	m.type = STORE_MEDIA_PTT;
	m.seconds = 12;
	m.waveform = wave;
	m.waveform_len = sizeof(wave);
	h.state = STORE_MSG_READ;
	assert_int_equal(store_hist_import(s, &h, 1), 1);
	assert_int_equal(store_media_get(s, BOB, false, "H1", &got), 1);
	assert_int_equal(got.type, STORE_MEDIA_PTT);
	assert_int_equal(got.seconds, 12);
	assert_int_equal(got.waveform_len, sizeof(wave));
	store_media_release(&got);
	/* a placeholder filled with a media message gets its media */
	p = row("P1", "", NULL);
	p.kind = STORE_MSG_PLACEHOLDER;
	assert_int_equal(store_msg_insert_incoming(s, &p, NULL), 0);
	assert_int_equal(store_media_get(s, BOB, false, "P1", &got), 0);
	p = row("P1", "", &m);
	assert_int_equal(store_msg_insert_incoming(s, &p, NULL), 2);
	assert_int_equal(store_media_get(s, BOB, false, "P1", &got), 1);
	assert_int_equal(got.type, STORE_MEDIA_PTT);
	store_media_release(&got);
	store_close(s);
}

static void
test_store_media__migration_from_14_keeps_rows(void **state)
{
	char			*dir = tmpdir(), path[300];
	struct store		*s = NULL;
	struct store_media	 m = doc(), got;
	struct store_msg_new	 t = row("T1", "papaya", NULL);
	struct store_msg_new	 n = row("D1", "report.pdf", &m);
	sqlite3			*db;

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_msg_insert_incoming(s, &t, NULL), 0);
	store_close(s);
	s = NULL;
	/* back to schema 14: migration 15's table gone */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(store_tok_register(db), 0);
	assert_int_equal(sqlite3_exec(db, UNDO_15
	    "UPDATE counter SET value = 14 WHERE name = 'schema_version';"
	    "PRAGMA user_version = 14", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM sqlite_master"
	    " WHERE name = 'media'"), 0);

	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(STORE_SCHEMA_VERSION, 20);
	assert_int_equal(hits(s, "papaya"), 1);
	assert_int_equal(store_msg_insert_incoming(s, &t, NULL), 1);
	assert_int_equal(store_msg_insert_incoming(s, &n, NULL), 0);
	assert_int_equal(store_media_get(s, BOB, false, "D1", &got), 1);
	assert_string_equal(got.file_name, "report.pdf");
	store_media_release(&got);
	store_close(s);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM message"), 2);
	assert_int_equal(count_rows(path, "SELECT value FROM counter"
	    " WHERE name = 'schema_version'"), STORE_SCHEMA_VERSION);
	rmtree(dir);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_media__put_with_the_row_and_read_back),
		cmocka_unit_test(test_store_media__download_and_upload_states),
		cmocka_unit_test(test_store_media__retry_path_and_reset_at_start),
		cmocka_unit_test(test_store_media__limits_refuse_and_store_nothing),
		cmocka_unit_test(test_store_media__goes_with_its_message),
		cmocka_unit_test(test_store_media__revoke_drops_it_and_an_edit_is_its_caption),
		cmocka_unit_test(test_store_media__history_import_and_placeholder),
		cmocka_unit_test(test_store_media__migration_from_14_keeps_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
