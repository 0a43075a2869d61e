/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-viewonce20.c -- a view-once message in the store (issue 20;
 * store/rich.c, store/store-rich.h; protocol-features.md 3.4): its media
 * row kept beside its "viewonce" record, its state, marked opened once
 * (the record's opened field, the media row and its key gone, kept on a
 * reopened database), what refuses; its words on the screen and in the
 * printers (base/rich.c) with and without "opened".
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

#include "base/buf.h"
#include "base/rich.h"
#include "store-test.h"

#define BOB	"15550000003@s.whatsapp.net"
#define REC	"viewonce\nmedia=image"

static uint8_t	 key[32], sha[32], enc[32];

static struct store_media
photo(void)
{
	struct store_media	 m;

	memset(&m, 0, sizeof(m));
	memset(key, 7, sizeof(key));
	memset(sha, 8, sizeof(sha));
	memset(enc, 9, sizeof(enc));
	m.type = STORE_MEDIA_IMAGE;
	m.mimetype = (char *)"image/jpeg";
	m.size = 1234;
	m.media_key = key;
	m.media_key_len = 32;
	m.file_sha256 = sha;
	m.file_sha256_len = 32;
	m.file_enc_sha256 = enc;
	m.file_enc_sha256_len = 32;
	m.direct_path = (char *)"/v/t62/once.enc";
	return m;
}

/* Store bob's rich row id with record rec and media md (may be NULL). */
static void
put(struct store *s, const char *id, const char *rec,
    const struct store_media *md)
{
	struct store_msg_new	 n;

	memset(&n, 0, sizeof(n));
	n.chat = BOB;
	n.id = id;
	n.sender = "";
	n.ts_ms = 1000;
	n.kind = STORE_MSG_RICH;
	n.text = rec;
	n.text_len = strlen(rec);
	n.state = STORE_MSG_RECEIVED;
	n.media = md;
	assert_int_equal(store_msg_insert_incoming(s, &n, NULL), 0);
}

static void
test_viewonce__media_kept_beside_the_record(void **state)
{
	struct store		*s = open_mem();
	struct store_media	 m = photo(), got;
	struct store_msg	 msg;
	bool			 mine = true;

	(void)state;
	put(s, "V1", REC, &m);
	assert_int_equal(store_media_get(s, BOB, false, "V1", &got), 1);
	assert_int_equal(got.type, STORE_MEDIA_IMAGE);
	assert_int_equal(got.media_key_len, 32);
	assert_memory_equal(got.media_key, key, 32);
	assert_memory_equal(got.file_sha256, sha, 32);
	assert_memory_equal(got.file_enc_sha256, enc, 32);
	assert_string_equal(got.direct_path, "/v/t62/once.enc");
	assert_int_equal(got.size, 1234);
	store_media_release(&got);
	/* the row stays a rich one: its record as it came */
	memset(&msg, 0, sizeof(msg));
	assert_int_equal(store_msg_get(s, BOB, false, "V1", &msg), 1);
	assert_int_equal(msg.kind, STORE_MSG_RICH);
	assert_int_equal(msg.text_len, strlen(REC));
	assert_memory_equal(msg.text, REC, strlen(REC));
	store_msg_release(&msg);
	assert_int_equal(store_viewonce_state(s, BOB, "V1", &mine),
	    STORE_VIEWONCE_CLOSED);
	assert_false(mine);
	store_close(s);
}

static void
test_viewonce__opened_once(void **state)
{
	struct store		*s = open_mem();
	struct store_media	 m = photo(), got;
	struct store_msg	 msg;
	char			*rec = NULL;

	(void)state;
	put(s, "V1", REC, &m);
	assert_int_equal(store_viewonce_opened(s, BOB, false, "V1", &rec), 1);
	assert_string_equal(rec, REC "\nopened=yes");
	free(rec);
	assert_int_equal(store_viewonce_state(s, BOB, "V1", NULL),
	    STORE_VIEWONCE_OPENED);
	/* its key, path and hashes are gone */
	assert_int_equal(store_media_get(s, BOB, false, "V1", &got), 0);
	memset(&msg, 0, sizeof(msg));
	assert_int_equal(store_msg_get(s, BOB, false, "V1", &msg), 1);
	assert_false(msg.edited_ms > 0);
	store_msg_release(&msg);
	/* a second time: nothing changes */
	assert_int_equal(store_viewonce_opened(s, BOB, false, "V1", &rec), 2);
	assert_null(rec);
	/* the other direction, another id: none */
	assert_int_equal(store_viewonce_opened(s, BOB, true, "V1", NULL), 0);
	assert_int_equal(store_viewonce_opened(s, BOB, false, "V2", NULL), 0);
	store_close(s);
}

static void
test_viewonce__opened_is_kept_on_disk(void **state)
{
	char			*d = tmpdir(), path[512];
	struct store		*s = NULL;
	struct store_media	 m = photo();

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", d);
	assert_int_equal(store_open(d, &s), 0);
	put(s, "V1", REC, &m);
	assert_int_equal(store_viewonce_opened(s, BOB, false, "V1", NULL), 1);
	store_close(s);
	s = NULL;
	assert_int_equal(store_open(d, &s), 0);
	assert_int_equal(store_viewonce_state(s, BOB, "V1", NULL),
	    STORE_VIEWONCE_OPENED);
	store_close(s);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM media"), 0);
	rmtree(d);
	free(d);
}

static void
test_viewonce__other_rows_and_bad_arguments(void **state)
{
	struct store	*s = open_mem();

	(void)state;
	put(s, "L1", "location\nlat=1\nlon=2", NULL);
	assert_int_equal(store_viewonce_state(s, BOB, "L1", NULL),
	    STORE_VIEWONCE_NOT);
	assert_int_equal(store_viewonce_opened(s, BOB, false, "L1", NULL), 0);
	assert_int_equal(store_viewonce_state(s, BOB, "none", NULL),
	    STORE_VIEWONCE_NOT);
	assert_int_equal(store_viewonce_state(s, NULL, "L1", NULL), -EINVAL);
	assert_int_equal(store_viewonce_state(s, BOB, NULL, NULL), -EINVAL);
	assert_int_equal(store_viewonce_opened(s, BOB, false, NULL, NULL),
	    -EINVAL);
	/* the record of a location stays as it was */
	store_close(s);
}

static void
test_viewonce__words(void **state)
{
	struct buf	 b = BUF_INIT;
	static const char opened[] = REC "\nopened=yes";

	(void)state;
	assert_int_equal(rich_describe(REC, strlen(REC), true, false, &b), 0);
	buf_append(&b, "", 1);
	assert_string_equal((const char *)b.p, "View once photo");
	buf_release(&b);
	assert_int_equal(rich_describe(opened, strlen(opened), true, false,
	    &b), 0);
	buf_append(&b, "", 1);
	assert_string_equal((const char *)b.p, "View once photo \xc2\xb7 opened");
	buf_release(&b);
	assert_int_equal(rich_describe(opened, strlen(opened), false, false,
	    &b), 0);
	buf_append(&b, "", 1);
	assert_string_equal((const char *)b.p, "View once photo - opened");
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_viewonce__media_kept_beside_the_record),
		cmocka_unit_test(test_viewonce__opened_once),
		cmocka_unit_test(test_viewonce__opened_is_kept_on_disk),
		cmocka_unit_test(test_viewonce__other_rows_and_bad_arguments),
		cmocka_unit_test(test_viewonce__words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
