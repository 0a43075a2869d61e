/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-conf.c -- the settings (src/conf.h): defaults from the
 * environment, the INI file, the command line over the file, and each bad
 * value with its message and place.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "src/conf.h"

#define KEY_HEX	"0102030405060708090a0b0c0d0e0f10" \
		"1112131415161718191a1b1c1d1e1f20"

static char	 dir[] = "/tmp/test-conf.XXXXXX";
static char	 path[256];

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/wachat.conf", dir);
	return 0;
}

static int
teardown(void **state)
{
	char	 p[300];

	(void)state;
	unlink(path);
	snprintf(p, sizeof(p), "%s/wachat/wachat.conf", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/wachat", dir);
	rmdir(p);
	rmdir(dir);
	return 0;
}

static void
write_file(const char *p, const char *text)
{
	FILE	*f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static const struct conf_env	 home_only = { "/home/u", NULL, NULL, NULL };

static void
test_conf_load__gives_the_defaults__with_only_home_set(void **state)
{
	struct conf	 c;
	struct conf_err	 e;

	(void)state;
	assert_int_equal(conf_load(&c, &home_only, NULL, NULL, 0, &e), 0);
	assert_string_equal(c.url, "wss://web.whatsapp.com/ws/chat");
	assert_false(c.has_root_key);
	assert_null(c.ca_file);
	assert_string_equal(c.version_url, "https://web.whatsapp.com/");
	assert_int_equal(c.qr_first_s, 0);	/* the engine's 60,20 */
	assert_int_equal(c.qr_next_s, 0);
	assert_null(c.version);
	assert_string_equal(c.data_dir, "/home/u/.local/share/wachat");
	assert_null(c.qr_file);
	assert_string_equal(c.log_file,
	    "/home/u/.local/state/wachat/wachat.log");
	assert_int_equal(c.log_level, LOG_INFO);
	assert_true(c.read_receipts);
	assert_true(c.send_typing);
	assert_true(c.send_presence);
	assert_true(c.enter_sends);
	assert_int_equal(c.thumbnail_rows, 6);
	assert_int_equal(c.thumbnail_protocol, CONF_THUMB_AUTO);
	assert_true(c.max_media_size == (uint64_t)2 << 30);
	assert_null(c.file_picker_command);
	assert_string_equal(c.download_dir,
	    "/home/u/.local/share/wachat/media");
	assert_true(c.auto_download.max[WA_MEDIA_AUTO_IMAGE] == 0);
	assert_null(c.open_command);
	assert_null(c.keys[0]);
	conf_release(&c);
	conf_release(&c);	/* idempotent */
}

static void
test_conf_load__reads_the_privacy_switches_and_key_bindings(void **state)
{
	struct conf		 c;
	struct conf_err		 e;
	const struct conf_arg	 args[] = { { "send-typing", "on" } };
	int			 i, send = -1, help = -1;

	(void)state;
	write_file(path, "read-receipts = no\nsend-typing = false\n"
	    "send-presence = off\nenter-sends = 0\nkey-send = ctrl-s\n"
	    "key-help = f1\n");
	assert_int_equal(conf_load(&c, &home_only, path, args, 1, &e), 0);
	assert_false(c.read_receipts);
	assert_true(c.send_typing);	/* the command line wins */
	assert_false(c.send_presence);
	assert_false(c.enter_sends);
	for (i = 0; i < CONF_KEY_ACTIONS; i++) {
		if (strcmp(conf_key_actions[i], "send") == 0)
			send = i;
		if (strcmp(conf_key_actions[i], "help") == 0)
			help = i;
	}
	assert_true(send >= 0 && help >= 0);
	assert_string_equal(c.keys[send], "ctrl-s");
	assert_string_equal(c.keys[help], "f1");
	assert_true(conf_is_name("key-next-chat"));
	assert_false(conf_is_name("key-"));
	conf_release(&c);
}

static void
test_conf_load__uses_absolute_xdg_dirs__and_ignores_relative_ones(
    void **state)
{
	struct conf_env	 env = { "/home/u", "/cfg", "/data", "rel/state" };
	struct conf	 c;
	struct conf_err	 e;
	char		*f;

	(void)state;
	assert_int_equal(conf_load(&c, &env, NULL, NULL, 0, &e), 0);
	assert_string_equal(c.data_dir, "/data/wachat");
	assert_string_equal(c.log_file,
	    "/home/u/.local/state/wachat/wachat.log");
	conf_release(&c);
	f = conf_default_file(&env);
	assert_string_equal(f, "/cfg/wachat/wachat.conf");
	free(f);
	f = conf_default_file(&home_only);
	assert_string_equal(f, "/home/u/.config/wachat/wachat.conf");
	free(f);
}

static void
test_conf_load__reads_every_setting__from_the_file(void **state)
{
	struct conf	 c;
	struct conf_err	 e;

	(void)state;
	write_file(path,
	    "# wachat settings\n"
	    "url = ws://127.0.0.1:8080/ws/chat\n"
	    "root-key = " KEY_HEX "\n"
	    "\n"
	    "ca-file = /dev/null\n"
	    "version-url = http://127.0.0.1:9/sw.js\n"
	    "wa-version = 2.3000.1012345678\n"
	    "data-dir = /srv/wachat\n"
	    "qr-file = /run/qr.txt ; where the demo reads it\n"
	    "qr-times = 30,10\n"
	    "log-file = /var/log/wachat.log\n"
	    "log-level = debug\n"
	    "thumbnail-rows = 0\n"
	    "thumbnail-protocol = sixel\n"
	    "max-media-size = 500M\n"
	    "file-picker-command = nnn -p %f\n"
	    "auto-download = image:5M, ptt:2M\n"
	    "open-command = feh -F\n");
	assert_int_equal(conf_load(&c, &home_only, path, NULL, 0, &e), 0);
	assert_true(c.max_media_size == (uint64_t)500 << 20);
	assert_string_equal(c.file_picker_command, "nnn -p %f");
	assert_string_equal(c.download_dir, "/srv/wachat/media");
	assert_true(c.auto_download.max[WA_MEDIA_AUTO_IMAGE] == 5u << 20);
	assert_true(c.auto_download.max[WA_MEDIA_AUTO_PTT] == 2u << 20);
	assert_true(c.auto_download.max[WA_MEDIA_AUTO_VIDEO] == 0);
	assert_string_equal(c.open_command, "feh -F");
	assert_int_equal(c.thumbnail_rows, 0);
	assert_int_equal(c.thumbnail_protocol, CONF_THUMB_SIXEL);
	assert_string_equal(c.url, "ws://127.0.0.1:8080/ws/chat");
	assert_true(c.has_root_key);
	assert_int_equal(c.root_key[0], 0x01);
	assert_int_equal(c.root_key[31], 0x20);
	assert_string_equal(c.ca_file, "/dev/null");
	assert_string_equal(c.version_url, "http://127.0.0.1:9/sw.js");
	assert_string_equal(c.version, "2.3000.1012345678");
	assert_string_equal(c.data_dir, "/srv/wachat");
	assert_string_equal(c.qr_file, "/run/qr.txt");
	assert_int_equal(c.qr_first_s, 30);
	assert_int_equal(c.qr_next_s, 10);
	assert_string_equal(c.log_file, "/var/log/wachat.log");
	assert_int_equal(c.log_level, LOG_DEBUG);
	conf_release(&c);
}

static void
test_conf_load__reads_the_default_file__under_xdg_config_home(void **state)
{
	struct conf_env	 env = { "/home/u", dir, NULL, NULL };
	struct conf	 c;
	struct conf_err	 e;
	char		 p[300];

	(void)state;
	snprintf(p, sizeof(p), "%s/wachat", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/wachat/wachat.conf", dir);
	write_file(p, "log-level = warn\n");
	assert_int_equal(conf_load(&c, &env, NULL, NULL, 0, &e), 0);
	assert_int_equal(c.log_level, LOG_WARN);
	conf_release(&c);
}

static void
test_conf_load__lets_the_command_line_override_the_file(void **state)
{
	const struct conf_arg	 args[] = {
		{ "url", "wss://example.invalid/ws" },
		{ "qr-file", "" },	/* unsets the file's */
		{ "log-level", "error" },
		{ "log-level", "warn" },	/* the last one wins */
	};
	struct conf	 c;
	struct conf_err	 e;

	(void)state;
	write_file(path, "url = ws://127.0.0.1:1/ws/chat\n"
	    "qr-file = /run/qr.txt\ndata-dir = /srv/wachat\n");
	assert_int_equal(conf_load(&c, &home_only, path, args, 4, &e), 0);
	assert_string_equal(c.url, "wss://example.invalid/ws");
	assert_null(c.qr_file);
	assert_string_equal(c.data_dir, "/srv/wachat");
	assert_int_equal(c.log_level, LOG_WARN);
	conf_release(&c);
}

/* Each bad value, with the message it gets. */
static const struct {
	const char	*name, *value, *why;
} bad[] = {
	{ "url", "http://web.whatsapp.com/ws/chat",
	    "not a ws:// or wss:// URL" },
	{ "url", "wss://", "not a ws:// or wss:// URL" },
	{ "root-key", "abcd", "not a key of 64 hexadecimal digits" },
	{ "root-key",
	    "g102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
	    "not a key of 64 hexadecimal digits" },
	{ "ca-file", "/nonexistent/ca.pem", "no such file" },
	{ "version-url", "ftp://example.invalid/sw.js",
	    "not an http:// or https:// URL" },
#define BAD_VERSION "not a version of the form 2.3000.1234567890"
	{ "wa-version", "2.3000", BAD_VERSION },
	{ "wa-version", "2.3000.", BAD_VERSION },
	{ "wa-version", "2.3000.x", BAD_VERSION },
	{ "wa-version", "1.2.3", BAD_VERSION },		/* not 2.3000.N */
	{ "wa-version", "2.2413.1", BAD_VERSION },
	{ "wa-version", "2.30000.1", BAD_VERSION },
	{ "wa-version", "02.3000.1", BAD_VERSION },
	{ "wa-version", "2.3000.12345678901", BAD_VERSION },	/* 11 */
	{ "wa-version", "2.3000.1.2", BAD_VERSION },
	{ "wa-version", "2.3000.-1", BAD_VERSION },
#define BAD_QR "not two numbers of seconds, 1 to 600, as FIRST,NEXT"
	{ "qr-times", "60", BAD_QR },
	{ "qr-times", "0,20", BAD_QR },
	{ "qr-times", "60,601", BAD_QR },
	{ "qr-times", "60,20,5", BAD_QR },
	{ "qr-times", "-1,20", BAD_QR },
	{ "qr-times", "60, 20", BAD_QR },
	{ "data-dir", "", "must not be empty" },
	{ "log-file", "", "must not be empty" },
	{ "log-level", "loud", "not one of error, warn, info, debug" },
	{ "colour", "blue", "unknown setting" },
	{ "read-receipts", "maybe", "not yes or no" },
	{ "send-typing", "", "not yes or no" },
	{ "send-presence", "YES", "not yes or no" },
	{ "enter-sends", "2", "not yes or no" },
	{ "key-fly", "ctrl-x", "unknown setting" },
	{ "key-send", "", "not a key name (ctrl-x, alt-s, f1, tab, pgup, ...)" },
	{ "key-send", "ctrl x", "not a key name (ctrl-x, alt-s, f1, tab, pgup, ...)" },
	{ "max-media-size", "2X", "not a size (bytes, or a number with K, M, "
	    "G or T)" },
	{ "max-media-size", "0", "not a size (bytes, or a number with K, M, "
	    "G or T)" },
	{ "thumbnail-rows", "41", "not a number of rows, 0 to 40" },
	{ "thumbnail-rows", "-1", "not a number of rows, 0 to 40" },
	{ "thumbnail-rows", "6 rows", "not a number of rows, 0 to 40" },
	{ "thumbnail-rows", "", "not a number of rows, 0 to 40" },
	{ "thumbnail-protocol", "ascii", "not one of auto, halfblocks, kitty, sixel, iterm2, off" },
	{ "auto-download", "photo:5M", "not none or a list such as image:5M,ptt:2M (image, video, audio, ptt, document, sticker)" },
	{ "download-dir", "", "must not be empty" },
};

static void
test_conf_load__names_the_option_and_why__for_each_bad_value_on_the_command_line(
    void **state)
{
	struct conf	 c;
	struct conf_err	 e;
	size_t		 i;

	(void)state;
	memset(&c, 0x5a, sizeof(c));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct conf_arg	 a = { bad[i].name, bad[i].value };

		assert_int_equal(conf_load(&c, &home_only, NULL, &a, 1, &e),
		    -EINVAL);
		assert_string_equal(e.file, "");
		assert_int_equal(e.line, 0);
		assert_string_equal(e.name, bad[i].name);
		assert_string_equal(e.why, bad[i].why);
		assert_int_equal(c.log_level, 0x5a5a5a5a);	/* untouched */
	}
}

static void
test_conf_load__names_the_file_line_and_why__for_each_bad_value_in_the_file(
    void **state)
{
	struct conf	 c;
	struct conf_err	 e;
	char		 text[512];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "# line 1\n\nlog-level = debug\n"
		    "%s = %s\nurl = ws://x/\n", bad[i].name, bad[i].value);
		write_file(path, text);
		assert_int_equal(conf_load(&c, &home_only, path, NULL, 0, &e),
		    -EINVAL);
		assert_string_equal(e.file, path);
		assert_int_equal(e.line, 4);
		assert_string_equal(e.name, bad[i].name);
		assert_string_equal(e.why, bad[i].why);
	}
}

static void
test_conf_load__takes_a_wa_version__of_2_3000_and_1_to_10_digits(
    void **state)
{
	static const char *const good[] = {
		"2.3000.7", "2.3000.1023456789", "2.3000.0000000001",
	};
	struct conf	 c;
	struct conf_err	 e;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct conf_arg	 a = { "wa-version", good[i] };

		assert_int_equal(conf_load(&c, &home_only, NULL, &a, 1, &e),
		    0);
		assert_string_equal(c.version, good[i]);
		conf_release(&c);
	}
}

static void
test_conf_load__reports_the_first_bad_line__for_a_syntax_error(void **state)
{
	struct conf	 c;
	struct conf_err	 e;

	(void)state;
	write_file(path, "log-level = info\n\nthis is not a setting\n"
	    "log-level = loud\n");
	assert_int_equal(conf_load(&c, &home_only, path, NULL, 0, &e), -EINVAL);
	assert_int_equal(e.line, 3);
	assert_string_equal(e.name, "");
	assert_string_equal(e.why, "not a 'name = value' line");

	/* The handler's error first, a syntax error after it. */
	write_file(path, "log-level = loud\nnot a setting\n");
	assert_int_equal(conf_load(&c, &home_only, path, NULL, 0, &e), -EINVAL);
	assert_int_equal(e.line, 1);
	assert_string_equal(e.name, "log-level");

	write_file(path, "[wachat]\nlog-level = info\n");
	assert_int_equal(conf_load(&c, &home_only, path, NULL, 0, &e), -EINVAL);
	assert_int_equal(e.line, 2);
	assert_string_equal(e.name, "wachat");
	assert_string_equal(e.why, "settings go before any [section]");
}

static void
test_conf_load__fails__on_a_named_file_that_is_missing(void **state)
{
	struct conf	 c;
	struct conf_err	 e;
	char		 p[300];

	(void)state;
	snprintf(p, sizeof(p), "%s/missing.conf", dir);
	assert_int_equal(conf_load(&c, &home_only, p, NULL, 0, &e), -ENOENT);
	assert_string_equal(e.file, p);
	assert_string_equal(e.why, "no such file");
}

static void
test_conf_load__fails__without_home_or_xdg_for_the_defaults(void **state)
{
	const struct conf_env	 none = { NULL, NULL, NULL, NULL };
	const struct conf_arg	 dd = { "data-dir", "/srv/wachat" };
	struct conf		 c;
	struct conf_err		 e;

	(void)state;
	assert_int_equal(conf_load(&c, &none, NULL, NULL, 0, &e), -EINVAL);
	assert_string_equal(e.name, "data-dir");
	assert_int_equal(conf_load(&c, &none, NULL, &dd, 1, &e), -EINVAL);
	assert_string_equal(e.name, "log-file");
}

/* Issue 19: "~" and "~/" mean $HOME in every path setting; a relative
 * download-dir is made absolute against the start directory. */
static void
test_conf_load__expands_home_in_paths__and_makes_download_dir_absolute(
    void **state)
{
	const struct conf_arg	 args[] = {
		{ "download-dir", "~/Downloads" },
		{ "log-file", "~/w.log" },
		{ "qr-file", "~" },
	};
	const struct conf_arg	 rel = { "download-dir", "dl/x" };
	struct conf	 c;
	struct conf_err	 e;
	char		 cwd[512], want[600];

	(void)state;
	write_file(path, "data-dir = ~/wdata\n");
	assert_int_equal(conf_load(&c, &home_only, path, args, 3, &e), 0);
	assert_string_equal(c.download_dir, "/home/u/Downloads");
	assert_string_equal(c.data_dir, "/home/u/wdata");
	assert_string_equal(c.log_file, "/home/u/w.log");
	assert_string_equal(c.qr_file, "/home/u");
	conf_release(&c);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(want, sizeof(want), "%s/dl/x", cwd);
	assert_int_equal(conf_load(&c, &home_only, path, &rel, 1, &e), 0);
	assert_string_equal(c.download_dir, want);
	conf_release(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_load__gives_the_defaults__with_only_home_set),
		cmocka_unit_test(test_conf_load__uses_absolute_xdg_dirs__and_ignores_relative_ones),
		cmocka_unit_test(test_conf_load__reads_the_privacy_switches_and_key_bindings),
		cmocka_unit_test(test_conf_load__reads_every_setting__from_the_file),
		cmocka_unit_test(test_conf_load__reads_the_default_file__under_xdg_config_home),
		cmocka_unit_test(test_conf_load__lets_the_command_line_override_the_file),
		cmocka_unit_test(test_conf_load__names_the_option_and_why__for_each_bad_value_on_the_command_line),
		cmocka_unit_test(test_conf_load__names_the_file_line_and_why__for_each_bad_value_in_the_file),
		cmocka_unit_test(test_conf_load__takes_a_wa_version__of_2_3000_and_1_to_10_digits),
		cmocka_unit_test(test_conf_load__reports_the_first_bad_line__for_a_syntax_error),
		cmocka_unit_test(test_conf_load__fails__on_a_named_file_that_is_missing),
		cmocka_unit_test(test_conf_load__fails__without_home_or_xdg_for_the_defaults),
		cmocka_unit_test(test_conf_load__expands_home_in_paths__and_makes_download_dir_absolute),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
