/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/test-store.c -- the store: modes, migrations, device, prekeys. */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "base/err.h"
#include "store/store.h"
#include "store-test.h"

static mode_t
mode_of(const char *path)
{
	struct stat	 st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_mode & 0777;
}

static void
test_store_open__creates_a_0700_dir_and_0600_files(void **state)
{
	char		*top = tmpdir(), dir[256], path[300];
	struct store	*s = NULL;
	mode_t		 old = umask(0);	/* as careless as a user can be */

	(void)state;
	snprintf(dir, sizeof(dir), "%s/wachat", top);
	assert_int_equal(store_open(dir, &s), 0);
	umask(old);
	assert_int_equal(mode_of(dir), 0700);
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	assert_int_equal(mode_of(path), 0600);
	snprintf(path, sizeof(path), "%s/wachat.db-wal", dir);
	assert_int_equal(mode_of(path), 0600);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	store_close(s);
	rmtree(top);
	free(top);
}

static void
test_store_open__refuses_a_dir_open_to_others(void **state)
{
	char		*dir = tmpdir();
	struct store	*s = NULL;

	(void)state;
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(store_open(dir, &s), -EPERM);
	assert_null(s);
	rmtree(dir);
	free(dir);
}

static void
test_store_open__refuses_a_database_file_open_to_others(void **state)
{
	char		*dir = tmpdir(), path[300];
	struct store	*s = NULL;

	(void)state;
	assert_int_equal(store_open(dir, &s), 0);
	store_close(s);
	s = NULL;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(store_open(dir, &s), -EPERM);
	assert_null(s);
	rmtree(dir);
	free(dir);
}

static void
test_store_open__refuses_a_newer_schema__leaving_the_file(void **state)
{
	char		*dir = tmpdir(), path[300];
	struct store	*s = NULL;
	sqlite3		*db;
	struct stat	 before, after;

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	assert_int_equal(store_open(dir, &s), 0);
	store_close(s);
	s = NULL;
	/* as a newer wachat's migration 99 leaves it: the version in the
	 * header and its copy in the counter table */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE future (x);"
	    "UPDATE counter SET value = 99 WHERE name = 'schema_version';"
	    "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(stat(path, &before), 0);
	assert_int_equal(store_open(dir, &s), WC_ESCHEMA);
	assert_null(s);
	assert_int_equal(stat(path, &after), 0);
	assert_int_equal(before.st_size, after.st_size);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "SELECT x FROM future", NULL, NULL,
	    NULL), SQLITE_OK);
	sqlite3_close(db);
	rmtree(dir);
	free(dir);
}

/* The header's user_version set to v, as a flipped byte would. */
static void
poke_version(const char *path, uint32_t v)
{
	unsigned char	 b[4] = { v >> 24, v >> 16, v >> 8, v };
	FILE		*f = fopen(path, "r+b");

	assert_non_null(f);
	assert_int_equal(fseek(f, 60, SEEK_SET), 0);
	assert_int_equal(fwrite(b, 1, 4, f), 4);
	assert_int_equal(fclose(f), 0);
}

static void
test_store_open__takes_a_damaged_schema_version_for_damage(void **state)
{
	static const uint32_t	 bad[] = { 0, 1, 3, STORE_SCHEMA_VERSION - 1,
				    STORE_SCHEMA_VERSION + 1, 1000,
				    0x7fffffff, 0xfffffff6 };
	char		*dir = tmpdir(), path[300];
	struct store	*s = NULL;
	struct stat	 before, after;
	size_t		 i;
	int		 v;

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	assert_int_equal(store_open(dir, &s), 0);
	store_close(s);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		s = NULL;
		poke_version(path, bad[i]);
		assert_int_equal(stat(path, &before), 0);
		assert_int_equal(store_open(dir, &s), WC_EDBMALFORMED);
		assert_null(s);
		assert_int_equal(store_open_ro(dir, &s, &v), WC_EDBMALFORMED);
		assert_null(s);
		assert_int_equal(stat(path, &after), 0);
		assert_int_equal(before.st_size, after.st_size);
		assert_int_equal(before.st_mtime, after.st_mtime);
	}
	poke_version(path, STORE_SCHEMA_VERSION);
	assert_int_equal(store_open(dir, &s), 0);
	store_close(s);
	rmtree(dir);
	free(dir);
}

static void
test_store_open__refuses_a_file_that_is_not_a_database(void **state)
{
	char		*dir = tmpdir(), path[300];
	struct store	*s = NULL;
	FILE		*f;
	char		 back[64] = "";

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("not a database, but someone's data", f);
	fclose(f);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(store_open(dir, &s), WC_EDBNOTDB);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(back, sizeof(back), f));
	fclose(f);
	assert_string_equal(back, "not a database, but someone's data");
	rmtree(dir);
	free(dir);
}

static void
fill_device(struct store_device *d)
{
	memset(d, 0, sizeof(*d));
	memset(d->noise_priv, 1, sizeof(d->noise_priv));
	memset(d->noise_pub, 2, sizeof(d->noise_pub));
	memset(d->identity_priv, 3, sizeof(d->identity_priv));
	memset(d->identity_pub, 4, sizeof(d->identity_pub));
	d->registration_id = 0x3ABC;
	memset(d->adv_secret, 5, sizeof(d->adv_secret));
	d->spk_id = 1;
	memset(d->spk_priv, 6, sizeof(d->spk_priv));
	memset(d->spk_pub, 7, sizeof(d->spk_pub));
	memset(d->spk_sig, 8, sizeof(d->spk_sig));
}

static void
test_store_device__saves_and_loads_every_field(void **state)
{
	struct store		*s;
	struct store_device	 d, back;
	uint8_t			 adv[3] = { 9, 8, 7 };

	(void)state;
	assert_int_equal(store_open(NULL, &s), 0);
	assert_int_equal(store_device_load(s, &back), 0);	/* none yet */
	fill_device(&d);
	assert_int_equal(store_device_save(s, &d), 0);
	assert_int_equal(store_device_load(s, &back), 1);
	assert_memory_equal(back.noise_priv, d.noise_priv, STORE_KEY_LEN);
	assert_memory_equal(back.spk_sig, d.spk_sig, STORE_SIG_LEN);
	assert_int_equal(back.registration_id, 0x3ABC);
	assert_string_equal(back.jid, "");
	assert_null(back.adv_identity);
	store_device_release(&back);

	snprintf(d.jid, sizeof(d.jid), "15550001111:3@s.whatsapp.net");
	snprintf(d.push_name, sizeof(d.push_name), "Zoë");
	memset(d.account_sig_key, 0x42, STORE_KEY_LEN);
	d.adv_identity = adv;
	d.adv_identity_len = sizeof(adv);
	assert_int_equal(store_device_save(s, &d), 0);
	assert_int_equal(store_device_load(s, &back), 1);
	assert_string_equal(back.jid, "15550001111:3@s.whatsapp.net");
	assert_string_equal(back.push_name, "Zoë");
	assert_int_equal(back.account_sig_key[31], 0x42);
	assert_int_equal(back.adv_identity_len, 3);
	assert_memory_equal(back.adv_identity, adv, 3);
	store_device_release(&back);

	assert_int_equal(store_device_forget(s), 0);
	assert_int_equal(store_device_load(s, &back), 0);
	store_close(s);
}

static void
make_keys(struct store_prekey *k, uint32_t first, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t	 id = first + (uint32_t)i;

		if (id > STORE_PREKEY_ID_MAX)
			id -= STORE_PREKEY_ID_MAX;
		k[i].id = id;
		memset(k[i].priv, (int)(id & 0xFF), STORE_KEY_LEN);
		memset(k[i].pub, (int)(~id & 0xFF), STORE_KEY_LEN);
	}
}

static void
test_store_prekey__stores_812_and_uploads_them_once(void **state)
{
	static struct store_prekey	 k[812], pend[1000];
	struct store			*s;
	struct store_prekey		 one;
	uint32_t			 next;

	(void)state;
	assert_int_equal(store_open(NULL, &s), 0);
	assert_int_equal(store_prekey_next_id(s, &next), 0);
	assert_int_equal(next, 1);
	make_keys(k, 1, 812);
	assert_int_equal(store_prekey_put(s, k, 812), 0);
	assert_int_equal(store_prekey_count(s), 812);
	assert_int_equal(store_prekey_next_id(s, &next), 0);
	assert_int_equal(next, 813);
	/* Stored but not uploaded: all pending, unchanged. */
	assert_int_equal(store_prekey_pending(s, pend, 1000), 812);
	assert_int_equal(pend[0].id, 1);
	assert_memory_equal(pend[811].pub, k[811].pub, STORE_KEY_LEN);
	assert_int_equal(store_prekey_mark_uploaded(s, 1, 812), 0);
	assert_int_equal(store_prekey_pending(s, pend, 1000), 0);
	assert_int_equal(store_prekey_get(s, 400, &one), 1);
	assert_memory_equal(one.priv, k[399].priv, STORE_KEY_LEN);
	assert_int_equal(store_prekey_remove(s, 400), 0);
	assert_int_equal(store_prekey_get(s, 400, &one), 0);
	assert_int_equal(store_prekey_count(s), 811);
	store_close(s);
}

static void
test_store_prekey__never_gives_a_stored_id_a_second_key(void **state)
{
	struct store_prekey	 k[10], again[3];
	struct store		*s;
	struct store_prekey	 one;
	uint32_t		 next;

	(void)state;
	assert_int_equal(store_open(NULL, &s), 0);
	make_keys(k, 1, 10);
	assert_int_equal(store_prekey_put(s, k, 10), 0);
	make_keys(again, 11, 3);
	again[2].id = 5;		/* collides */
	memset(again[2].pub, 0xEE, STORE_KEY_LEN);
	assert_int_equal(store_prekey_put(s, again, 3), -EEXIST);
	/* Nothing of the failed batch was written. */
	assert_int_equal(store_prekey_count(s), 10);
	assert_int_equal(store_prekey_get(s, 11, &one), 0);
	assert_int_equal(store_prekey_get(s, 5, &one), 1);
	assert_memory_equal(one.pub, k[4].pub, STORE_KEY_LEN);
	assert_int_equal(store_prekey_next_id(s, &next), 0);
	assert_int_equal(next, 11);
	again[0].id = 0;
	assert_int_equal(store_prekey_put(s, again, 1), -EINVAL);
	store_close(s);
}

static void
test_store_prekey__next_id_wraps_after_0xffffff(void **state)
{
	struct store_prekey	 k[3];
	struct store		*s;
	uint32_t		 next;

	(void)state;
	assert_int_equal(store_open(NULL, &s), 0);
	make_keys(k, STORE_PREKEY_ID_MAX - 1, 2);
	assert_int_equal(store_prekey_put(s, k, 2), 0);
	assert_int_equal(store_prekey_next_id(s, &next), 0);
	assert_int_equal(next, 1);
	store_close(s);
}

static void
test_store_prekey__survives_a_reopen(void **state)
{
	char			*dir = tmpdir();
	struct store_prekey	 k[5], pend[5];
	struct store		*s;
	uint32_t		 next;

	(void)state;
	assert_int_equal(store_open(dir, &s), 0);
	make_keys(k, 1, 5);
	assert_int_equal(store_prekey_put(s, k, 5), 0);
	store_close(s);
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_prekey_pending(s, pend, 5), 5);
	assert_memory_equal(pend, k, sizeof(k));
	assert_int_equal(store_prekey_next_id(s, &next), 0);
	assert_int_equal(next, 6);
	store_close(s);
	rmtree(dir);
	free(dir);
}

int
main(void)
{
	static const struct CMUnitTest	 tests[] = {
		cmocka_unit_test(test_store_open__creates_a_0700_dir_and_0600_files),
		cmocka_unit_test(test_store_open__refuses_a_dir_open_to_others),
		cmocka_unit_test(test_store_open__refuses_a_database_file_open_to_others),
		cmocka_unit_test(test_store_open__refuses_a_newer_schema__leaving_the_file),
		cmocka_unit_test(test_store_open__takes_a_damaged_schema_version_for_damage),
		cmocka_unit_test(test_store_open__refuses_a_file_that_is_not_a_database),
		cmocka_unit_test(test_store_device__saves_and_loads_every_field),
		cmocka_unit_test(test_store_prekey__stores_812_and_uploads_them_once),
		cmocka_unit_test(test_store_prekey__never_gives_a_stored_id_a_second_key),
		cmocka_unit_test(test_store_prekey__next_id_wraps_after_0xffffff),
		cmocka_unit_test(test_store_prekey__survives_a_reopen),
	};

	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
