/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-ident.c -- what the store forgets of a user whose
 * identity changed (issue 16 point 6; protocol.md 11.7, 10.4), on a real
 * SQLite store in memory: the identities of every device of one address
 * name and the latest time one had changed
 * (store_signal_identity_delete_all), the sender-key holders among that
 * user's devices in every group (store_skr_forget_user), and both through
 * the Signal layer (wa_signal_forget_user over src/app-store.c's ops).
 * Names that share a prefix with the user (5 and 55, 5 and 5_1) and the
 * same digits on another server are kept.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "src/app-store.h"
#include "proto/crypto.h"
#include "proto/wa-signal.h"
#include "store/store.h"

static int64_t
clock_ms(void *arg)
{
	(void)arg;
	return 1700000000000LL;
}

static void
test_identity_delete_all(void **state)
{
	struct store	*st;
	uint8_t		 k1[32], k2[32], got[32];
	int64_t		 ch = -1;

	(void)state;
	memset(k1, 1, sizeof(k1));
	memset(k2, 2, sizeof(k2));
	assert_int_equal(store_open(NULL, &st), 0);
	assert_int_equal(store_signal_identity_save(st, "5", 0, k1, 100), 0);
	assert_int_equal(store_signal_identity_save(st, "5", 0, k2, 300), 1);
	assert_int_equal(store_signal_identity_save(st, "5", 2, k1, 100), 0);
	assert_int_equal(store_signal_identity_save(st, "5_1", 0, k1, 100), 0);
	assert_int_equal(store_signal_identity_save(st, "55", 0, k1, 100), 0);
	assert_int_equal(store_signal_identity_delete_all(st, "5", &ch), 2);
	assert_int_equal(ch, 300);
	assert_int_equal(store_signal_identity_load(st, "5", 0, got, NULL), 0);
	assert_int_equal(store_signal_identity_load(st, "5", 2, got, NULL), 0);
	assert_int_equal(store_signal_identity_load(st, "5_1", 0, got, NULL),
	    1);
	assert_int_equal(store_signal_identity_load(st, "55", 0, got, NULL),
	    1);
	/* none left: 0, and no change */
	assert_int_equal(store_signal_identity_delete_all(st, "5", &ch), 0);
	assert_int_equal(ch, 0);
	/* a new key after the reset is a first key, not a change */
	assert_int_equal(store_signal_identity_save(st, "5", 0, k1, 400), 0);
	assert_int_equal(store_signal_identity_delete_all(st, "5", NULL), 1);
	store_close(st);
}

static void
test_skr_forget_user(void **state)
{
	static const char *const keep[] = { "55@s.whatsapp.net",
	    "55:3@s.whatsapp.net", "5@lid", "5:3@lid", "15@s.whatsapp.net" };
	struct store	*st;
	size_t		 i;

	(void)state;
	assert_int_equal(store_open(NULL, &st), 0);
	assert_int_equal(store_skr_put(st, "1@g.us", "5@s.whatsapp.net"), 0);
	assert_int_equal(store_skr_put(st, "2@g.us", "5:3@s.whatsapp.net"), 0);
	assert_int_equal(store_skr_put(st, "1@g.us", "5:12@s.whatsapp.net"),
	    0);
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		assert_int_equal(store_skr_put(st, "1@g.us", keep[i]), 0);
	assert_int_equal(store_skr_forget_user(st, "5@s.whatsapp.net"), 3);
	assert_int_equal(store_skr_has(st, "1@g.us", "5@s.whatsapp.net"), 0);
	assert_int_equal(store_skr_has(st, "2@g.us", "5:3@s.whatsapp.net"), 0);
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		assert_int_equal(store_skr_has(st, "1@g.us", keep[i]), 1);
	assert_int_equal(store_skr_forget_user(st, "5@s.whatsapp.net"), 0);
	assert_int_equal(store_skr_forget_user(st, "5:3@s.whatsapp.net"),
	    -EINVAL);
	assert_int_equal(store_skr_forget_user(st, "5"), -EINVAL);
	assert_int_equal(store_skr_forget_user(st, "@lid"), -EINVAL);
	store_close(st);
}

static void
test_signal_forget_user(void **state)
{
	struct wa_signal_store_ops	 ops;
	struct wa_signal		*sig;
	struct store			*st;
	uint8_t				 k[32], got[32];
	int64_t				 ch = -1;

	(void)state;
	memset(k, 7, sizeof(k));
	assert_int_equal(wa_crypto_init(), 0);
	assert_int_equal(store_open(NULL, &st), 0);
	app_store_signal_ops(st, &ops);
	assert_int_equal(wa_signal_new(&ops, clock_ms, NULL, &sig), 0);
	assert_int_equal(store_signal_session_store(st, "7", 0,
	    (const uint8_t *)"a", 1), 0);
	assert_int_equal(store_signal_session_store(st, "7", 1,
	    (const uint8_t *)"b", 1), 0);
	assert_int_equal(store_signal_session_store(st, "7_1", 0,
	    (const uint8_t *)"c", 1), 0);
	assert_int_equal(store_signal_identity_save(st, "7", 0, k, 100), 0);
	assert_int_equal(wa_signal_forget_user(sig, "7", &ch), 3);
	assert_int_equal(ch, 0);
	assert_int_equal(store_signal_session_contains(st, "7", 0), 0);
	assert_int_equal(store_signal_session_contains(st, "7", 1), 0);
	assert_int_equal(store_signal_session_contains(st, "7_1", 0), 1);
	assert_int_equal(store_signal_identity_load(st, "7", 0, got, NULL), 0);
	assert_int_equal(wa_signal_forget_user(sig, "7", NULL), 0);
	assert_int_equal(wa_signal_forget_user(sig, "", NULL), -EINVAL);
	/* inside a transaction that is rolled back: nothing forgotten */
	assert_int_equal(store_tx_begin(st), 0);
	assert_int_equal(wa_signal_forget_user(sig, "7_1", NULL), 1);
	assert_int_equal(store_tx_rollback(st), 0);
	assert_int_equal(store_signal_session_contains(st, "7_1", 0), 1);
	wa_signal_free(sig);
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity_delete_all),
		cmocka_unit_test(test_skr_forget_user),
		cmocka_unit_test(test_signal_forget_user),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
