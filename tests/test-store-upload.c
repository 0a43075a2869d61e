/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-upload.c -- our media messages while their file is
 * uploaded (store/store-upload.h, issue 19): stored first without a
 * payload and kept out of the outbox, listed to take up again after a
 * restart, their sealed blob's hashes kept, given their payload with the
 * upload done (then in the outbox, once), failed and retried.
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

#include "store-test.h"

#define BOB	"15550000003@s.whatsapp.net"

static uint8_t	 key[32], sha[32], enc[32];

/* Our photo id, its upload to run: stored (QUEUED, no payload). */
static void
put_ours(struct store *s, const char *id)
{
	struct store_media	 m;
	struct store_msg_new	 n;

	memset(&m, 0, sizeof(m));
	memset(key, 7, sizeof(key));
	m.type = STORE_MEDIA_IMAGE;
	m.mimetype = (char *)"image/jpeg";
	m.size = 960;
	m.width = 64;
	m.height = 48;
	m.caption = (char *)"A photo";
	m.media_key = key;
	m.media_key_len = 32;
	m.path = (char *)"/home/a/photo.jpg";
	m.ul_state = STORE_UL_UPLOADING;
	memset(&n, 0, sizeof(n));
	n.chat = BOB;
	n.id = id;
	n.sender = "";
	n.from_me = true;
	n.ts_ms = 1000;
	n.kind = STORE_MSG_MEDIA;
	n.text = "A photo";
	n.text_len = 7;
	n.media = &m;
	assert_int_equal(store_msg_insert_outgoing(s, &n, NULL), 0);
}

/* The outbox's count of rows. */
static size_t
outbox_n(struct store *s)
{
	struct store_msg_page	 p;
	size_t			 n;

	memset(&p, 0, sizeof(p));
	assert_int_equal(store_msg_outbox(s, 50, &p), 0);
	n = p.n;
	store_msg_page_free(&p);
	return n;
}

static enum store_msg_state
state_of(struct store *s, const char *id)
{
	struct store_msg	 m;
	enum store_msg_state	 st;

	memset(&m, 0, sizeof(m));
	assert_int_equal(store_msg_get(s, BOB, true, id, &m), 1);
	st = m.state;
	store_msg_release(&m);
	return st;
}

static enum store_ul_state
ul_of(struct store *s, const char *id)
{
	struct store_media	 m;
	enum store_ul_state	 st;

	assert_int_equal(store_media_get(s, BOB, true, id, &m), 1);
	st = m.ul_state;
	store_media_release(&m);
	return st;
}

static void
test_store_upload__kept_out_of_the_outbox_until_done(void **state)
{
	static const uint8_t	 payload[] = { 0x1a, 0x03, 'a', 'b', 'c' };
	struct store		*s = open_mem();
	struct store_media_ul_key k[4];
	struct store_media_up	 u;
	struct store_media	 got;
	struct store_msg_page	 p;

	(void)state;
	put_ours(s, "U1");
	assert_int_equal(state_of(s, "U1"), STORE_MSG_QUEUED);
	assert_int_equal(outbox_n(s), 0);
	/* a restart finds it */
	assert_int_equal(store_media_uploading(s, k, 4), 1);
	assert_string_equal(k[0].chat, BOB);
	assert_string_equal(k[0].id, "U1");
	memset(sha, 8, sizeof(sha));
	memset(enc, 9, sizeof(enc));
	memset(&u, 0, sizeof(u));
	u.url = "https://mmg.whatsapp.net/v/x.enc";
	u.direct_path = "/v/x.enc?ccb=11-4";
	u.file_sha256 = sha;
	u.file_enc_sha256 = enc;
	u.payload = payload;
	u.payload_len = sizeof(payload);
	assert_int_equal(store_media_uploaded(s, BOB, "U1", &u), 1);
	/* in the outbox now, with its payload, once */
	memset(&p, 0, sizeof(p));
	assert_int_equal(store_msg_outbox(s, 50, &p), 0);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.msgs[0].id, "U1");
	assert_int_equal(p.msgs[0].payload_len, sizeof(payload));
	assert_memory_equal(p.msgs[0].payload, payload, sizeof(payload));
	store_msg_page_free(&p);
	assert_int_equal(store_media_get(s, BOB, true, "U1", &got), 1);
	assert_int_equal(got.ul_state, STORE_UL_DONE);
	assert_string_equal(got.direct_path, "/v/x.enc?ccb=11-4");
	assert_memory_equal(got.file_enc_sha256, enc, 32);
	assert_memory_equal(got.file_sha256, sha, 32);
	store_media_release(&got);
	/* done already: nothing changes; nothing left to take up */
	assert_int_equal(store_media_uploaded(s, BOB, "U1", &u), 0);
	assert_int_equal(store_media_uploading(s, k, 4), 0);
	/* refused: no payload, a hash missing */
	u.payload_len = 0;
	assert_int_equal(store_media_uploaded(s, BOB, "U1", &u), -EINVAL);
	u.payload_len = sizeof(payload);
	u.file_sha256 = NULL;
	assert_int_equal(store_media_uploaded(s, BOB, "U1", &u), -EINVAL);
	store_close(s);
}

static void
test_store_upload__failed_then_retried(void **state)
{
	struct store		*s = open_mem();
	struct store_media_ul_key k[4];

	(void)state;
	put_ours(s, "U2");
	/* sealed: the hashes kept for the next try */
	memset(sha, 8, sizeof(sha));
	memset(enc, 9, sizeof(enc));
	assert_int_equal(store_media_sealed(s, BOB, "U2", sha, enc), 1);
	assert_int_equal(store_media_sealed(s, BOB, "none", sha, enc), 0);
	assert_int_equal(store_media_sealed(s, BOB, "U2", NULL, enc), -EINVAL);
	assert_int_equal(store_media_upload_failed(s, BOB, "U2"), 1);
	assert_int_equal(state_of(s, "U2"), STORE_MSG_FAILED);
	assert_int_equal(ul_of(s, "U2"), STORE_UL_FAILED);
	assert_int_equal(store_media_uploading(s, k, 4), 0);
	/* a plain retry would queue it: still not sendable, no payload */
	assert_int_equal(store_msg_retry(s, BOB, "U2"), 1);
	assert_int_equal(outbox_n(s), 0);
	assert_int_equal(store_msg_mark_failed(s, BOB, "U2"), 1);
	/* the upload's retry: queued and uploading again */
	assert_int_equal(store_media_upload_retry(s, BOB, "U2"), 1);
	assert_int_equal(state_of(s, "U2"), STORE_MSG_QUEUED);
	assert_int_equal(ul_of(s, "U2"), STORE_UL_UPLOADING);
	assert_int_equal(store_media_uploading(s, k, 4), 1);
	assert_int_equal(outbox_n(s), 0);
	{
		struct store_media	 got;

		assert_int_equal(store_media_get(s, BOB, true, "U2", &got), 1);
		assert_int_equal(got.file_enc_sha256_len, 32);
		assert_memory_equal(got.file_enc_sha256, enc, 32);
		assert_memory_equal(got.file_sha256, sha, 32);
		store_media_release(&got);
	}
	/* not failed: 0, nothing changes */
	assert_int_equal(store_media_upload_retry(s, BOB, "U2"), 0);
	assert_int_equal(store_media_upload_failed(s, BOB, "none"), 0);
	assert_int_equal(store_media_upload_retry(s, "", "U2"), -EINVAL);
	store_close(s);
}

static void
test_store_upload__no_payload_only_while_uploading(void **state)
{
	struct store		*s = open_mem();
	struct store_media	 m;
	struct store_msg_new	 n;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = STORE_MEDIA_DOCUMENT;
	m.ul_state = STORE_UL_DONE;
	memset(&n, 0, sizeof(n));
	n.chat = BOB;
	n.id = "U3";
	n.sender = "";
	n.from_me = true;
	n.ts_ms = 1000;
	n.kind = STORE_MSG_MEDIA;
	n.text = "";
	n.media = &m;
	assert_int_equal(store_msg_insert_outgoing(s, &n, NULL), -EINVAL);
	n.media = NULL;
	n.kind = STORE_MSG_TEXT;
	assert_int_equal(store_msg_insert_outgoing(s, &n, NULL), -EINVAL);
	store_close(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_upload__kept_out_of_the_outbox_until_done),
		cmocka_unit_test(test_store_upload__failed_then_retried),
		cmocka_unit_test(test_store_upload__no_payload_only_while_uploading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
