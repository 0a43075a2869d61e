/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-base-jid.c -- base/jid: parsing, formatting, the user and
 * device forms, the server predicates, comparing and phone numbers, with
 * their edge cases (empty, server-only, device 0 against none, agents,
 * too long, bad numbers, out aliasing its input).  Made-up numbers only.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/jid.h"

/* A string of n copies of c followed by tail, in buf[0..size). */
static const char *
repeat(char *buf, size_t size, char c, size_t n, const char *tail)
{
	assert_true(n + strlen(tail) < size);
	memset(buf, c, n);
	memcpy(buf + n, tail, strlen(tail) + 1);
	return buf;
}

/* j's user and server are these (j's views are not NUL terminated). */
static void
assert_parts(const struct jid *j, const char *user, const char *server)
{
	assert_int_equal(j->user_len, strlen(user));
	assert_memory_equal(j->user, user, j->user_len);
	assert_int_equal(j->server_len, strlen(server));
	assert_memory_equal(j->server, server, j->server_len);
}

/* --- jid_parse --------------------------------------------------------- */

static void
test_jid_parse__splits_user_and_server__of_a_pn_jid(void **state)
{
	const char	*s = "15551234567@s.whatsapp.net";
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse(s, &j), 0);
	assert_parts(&j, "15551234567", "s.whatsapp.net");
	assert_ptr_equal(j.user, s);		/* views into s */
	assert_ptr_equal(j.server, s + 12);
	assert_int_equal(j.agent, 0);
	assert_int_equal(j.device, 0);
	assert_false(j.has_device);
}

static void
test_jid_parse__reads_device_and_agent__of_an_ad_jid(void **state)
{
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse("15551234567:12@s.whatsapp.net", &j), 0);
	assert_parts(&j, "15551234567", "s.whatsapp.net");
	assert_int_equal(j.agent, 0);
	assert_int_equal(j.device, 12);
	assert_true(j.has_device);

	assert_int_equal(jid_parse("15551234567.1:3@s.whatsapp.net", &j), 0);
	assert_parts(&j, "15551234567", "s.whatsapp.net");
	assert_int_equal(j.agent, 1);
	assert_int_equal(j.device, 3);
	assert_true(j.has_device);

	/* An agent without a device. */
	assert_int_equal(jid_parse("100000000000001.2@lid", &j), 0);
	assert_parts(&j, "100000000000001", "lid");
	assert_int_equal(j.agent, 2);
	assert_int_equal(j.device, 0);
	assert_false(j.has_device);
}

static void
test_jid_parse__tells_device_0_from_none(void **state)
{
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse("15551234567:0@s.whatsapp.net", &j), 0);
	assert_int_equal(j.device, 0);
	assert_true(j.has_device);
	assert_int_equal(jid_parse("15551234567@s.whatsapp.net", &j), 0);
	assert_int_equal(j.device, 0);
	assert_false(j.has_device);
}

static void
test_jid_parse__reads_a_server_only_jid(void **state)
{
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse("s.whatsapp.net", &j), 0);
	assert_parts(&j, "", "s.whatsapp.net");
	assert_false(j.has_device);
	assert_int_equal(jid_parse("g.us", &j), 0);
	assert_parts(&j, "", "g.us");
	/* A dot in a server-only JID is the server's, not an agent. */
	assert_int_equal(jid_parse("1234.5", &j), 0);
	assert_parts(&j, "", "1234.5");
	assert_int_equal(j.agent, 0);
}

static void
test_jid_parse__reads_group_broadcast_and_other_servers(void **state)
{
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse("120363012345678901@g.us", &j), 0);
	assert_parts(&j, "120363012345678901", "g.us");
	assert_int_equal(jid_parse("15551234567-1600000000@g.us", &j), 0);
	assert_parts(&j, "15551234567-1600000000", "g.us");
	assert_int_equal(jid_parse("status@broadcast", &j), 0);
	assert_parts(&j, "status", "broadcast");
	/* Any server parses. */
	assert_int_equal(jid_parse("someone@example.org", &j), 0);
	assert_parts(&j, "someone", "example.org");
}

static void
test_jid_parse__accepts_leading_zeros_and_the_limits(void **state)
{
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse("1.00007:00042@s.whatsapp.net", &j), 0);
	assert_int_equal(j.agent, 7);
	assert_int_equal(j.device, 42);
	assert_int_equal(jid_parse("1.65535:65535@s.whatsapp.net", &j), 0);
	assert_int_equal(j.agent, 65535);
	assert_int_equal(j.device, 65535);
	assert_int_equal(jid_parse("1.0:0@lid", &j), 0);
	assert_int_equal(j.agent, 0);
	assert_int_equal(j.device, 0);
	assert_true(j.has_device);
}

static void
test_jid_parse__fails__on_empty(void **state)
{
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse("", &j), -EINVAL);
}

static void
test_jid_parse__fails__on_two_ats(void **state)
{
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse("a@b@s.whatsapp.net", &j), -EINVAL);
	assert_int_equal(jid_parse("a@@s.whatsapp.net", &j), -EINVAL);
	assert_int_equal(jid_parse("a@s.whatsapp.net@", &j), -EINVAL);
}

static void
test_jid_parse__fails__on_an_empty_user_or_server(void **state)
{
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse("@s.whatsapp.net", &j), -EINVAL);
	assert_int_equal(jid_parse("15551234567@", &j), -EINVAL);
	assert_int_equal(jid_parse("@", &j), -EINVAL);
	/* A user that is only an agent or a device. */
	assert_int_equal(jid_parse(":1@s.whatsapp.net", &j), -EINVAL);
	assert_int_equal(jid_parse(".1@s.whatsapp.net", &j), -EINVAL);
	assert_int_equal(jid_parse(".1:2@s.whatsapp.net", &j), -EINVAL);
}

static void
test_jid_parse__fails__on_a_colon_in_the_server(void **state)
{
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse("1@s.whatsapp.net:5", &j), -EINVAL);
	assert_int_equal(jid_parse("1:5", &j), -EINVAL);	/* no '@' */
	assert_int_equal(jid_parse(":", &j), -EINVAL);
}

static void
test_jid_parse__fails__on_bad_device_or_agent_numbers(void **state)
{
	static const char *const bad[] = {
		"1:@s.whatsapp.net",		/* empty device */
		"1.@s.whatsapp.net",		/* empty agent */
		"1.:3@s.whatsapp.net",
		"1:65536@s.whatsapp.net",	/* over 16 bits */
		"1.65536@s.whatsapp.net",
		"1:000001@s.whatsapp.net",	/* six digits */
		"1:99999@s.whatsapp.net",
		"1:-1@s.whatsapp.net",
		"1:+1@s.whatsapp.net",
		"1: 1@s.whatsapp.net",
		"1:1a@s.whatsapp.net",
		"1:0x1@s.whatsapp.net",
		"1.a@s.whatsapp.net",
		"1:1:2@s.whatsapp.net",		/* two colons */
		"1.1.2@s.whatsapp.net",		/* two dots */
		"1:2.3@s.whatsapp.net",		/* the agent after the device */
	};
	struct jid	 j = { .user = "untouched" };
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (jid_parse(bad[i], &j) != -EINVAL)
			fail_msg("parsed: %s", bad[i]);
		assert_string_equal(j.user, "untouched");	/* *out kept */
	}
}

static void
test_jid_parse__fails__on_too_long(void **state)
{
	char		 buf[256], s[64];
	struct jid	 j;

	(void)state;
	/* The user: JID_USER_MAX bytes parse, one more does not. */
	repeat(buf, sizeof(buf), '1', JID_USER_MAX, "@s.whatsapp.net");
	assert_int_equal(jid_parse(buf, &j), 0);
	assert_int_equal(j.user_len, JID_USER_MAX);
	repeat(buf, sizeof(buf), '1', JID_USER_MAX + 1, "@s.whatsapp.net");
	assert_int_equal(jid_parse(buf, &j), -EINVAL);
	/* The agent and device do not count in the user's length. */
	repeat(buf, sizeof(buf), '1', JID_USER_MAX, ".1:2@lid");
	assert_int_equal(jid_parse(buf, &j), 0);

	/* The server: JID_SERVER_MAX bytes, with and without a user. */
	repeat(s, sizeof(s), 's', JID_SERVER_MAX, "");
	assert_int_equal(jid_parse(s, &j), 0);
	snprintf(buf, sizeof(buf), "1@%s", s);
	assert_int_equal(jid_parse(buf, &j), 0);
	repeat(s, sizeof(s), 's', JID_SERVER_MAX + 1, "");
	assert_int_equal(jid_parse(s, &j), -EINVAL);
	snprintf(buf, sizeof(buf), "1@%s", s);
	assert_int_equal(jid_parse(buf, &j), -EINVAL);

	/* The whole: at most JID_MAX - 1 bytes, whatever its parts.  The
	 * longest valid parts stay under it. */
	repeat(buf, sizeof(buf), '1', JID_USER_MAX, ".65535:65535@");
	repeat(s, sizeof(s), 's', JID_SERVER_MAX, "");
	memcpy(buf + strlen(buf), s, strlen(s) + 1);
	assert_true(strlen(buf) < JID_MAX);
	assert_int_equal(jid_parse(buf, &j), 0);
	repeat(buf, sizeof(buf), 's', JID_MAX, "");
	assert_int_equal(jid_parse(buf, &j), -EINVAL);
}

/* --- jid_format -------------------------------------------------------- */

/* Parse s, format it and compare with want. */
static void
assert_formats(const char *s, const char *want)
{
	struct jid	 j;
	char		 out[JID_MAX];

	assert_int_equal(jid_parse(s, &j), 0);
	assert_int_equal(jid_format(&j, out, sizeof(out)), 0);
	assert_string_equal(out, want);
}

static void
test_jid_format__writes_the_forms_whatsapp_writes(void **state)
{
	(void)state;
	assert_formats("15551234567@s.whatsapp.net",
	    "15551234567@s.whatsapp.net");
	assert_formats("15551234567:12@s.whatsapp.net",
	    "15551234567:12@s.whatsapp.net");
	assert_formats("15551234567.1:3@s.whatsapp.net",
	    "15551234567.1:3@s.whatsapp.net");
	assert_formats("100000000000001.2@lid", "100000000000001.2@lid");
	assert_formats("g.us", "g.us");
	assert_formats("status@broadcast", "status@broadcast");
}

static void
test_jid_format__drops_zero_agent_and_device_and_leading_zeros(void **state)
{
	(void)state;
	assert_formats("15551234567:0@s.whatsapp.net",
	    "15551234567@s.whatsapp.net");
	assert_formats("15551234567.0@s.whatsapp.net",
	    "15551234567@s.whatsapp.net");
	assert_formats("15551234567.0:0@lid", "15551234567@lid");
	assert_formats("1.007:0042@lid", "1.7:42@lid");
}

static void
test_jid_format__writes_a_hand_made_struct(void **state)
{
	struct jid	 j = {
		.user = "15551234567xyz", .user_len = 11,
		.server = "lid", .server_len = 3,
		.agent = 0, .device = 65535,
	};
	struct jid	 none = { 0 };
	char		 out[JID_MAX] = "x";

	(void)state;
	assert_int_equal(jid_format(&j, out, sizeof(out)), 0);
	assert_string_equal(out, "15551234567:65535@lid");
	/* An empty struct is the empty text (no NULL dereference). */
	assert_int_equal(jid_format(&none, out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

static void
test_jid_format__fails__when_it_does_not_fit(void **state)
{
	const char	*s = "15551234567.1:3@s.whatsapp.net";
	struct jid	 j;
	char		 out[64];
	size_t		 n = strlen(s);

	(void)state;
	assert_int_equal(jid_parse(s, &j), 0);
	/* Exactly the length with its NUL fits; one byte less does not. */
	assert_int_equal(jid_format(&j, out, n + 1), 0);
	assert_string_equal(out, s);
	for (size_t size = 1; size <= n; size++) {
		memset(out, 'x', sizeof(out));
		assert_int_equal(jid_format(&j, out, size), -ENAMETOOLONG);
		assert_string_equal(out, "");
		assert_int_equal(out[size], 'x');	/* nothing past size */
	}
	assert_int_equal(jid_format(&j, NULL, 0), -ENAMETOOLONG);
	/* A server-only JID too. */
	assert_int_equal(jid_parse("s.whatsapp.net", &j), 0);
	assert_int_equal(jid_format(&j, out, 14), -ENAMETOOLONG);
	assert_int_equal(jid_format(&j, out, 15), 0);
	assert_string_equal(out, "s.whatsapp.net");
}

static void
test_jid_format__fits_jid_max__for_the_longest_jid(void **state)
{
	char		 buf[256], s[64], out[JID_MAX];
	struct jid	 j, k;

	(void)state;
	repeat(buf, sizeof(buf), '9', JID_USER_MAX, ".65535:65535@");
	repeat(s, sizeof(s), 'z', JID_SERVER_MAX, "");
	memcpy(buf + strlen(buf), s, strlen(s) + 1);
	assert_int_equal(jid_parse(buf, &j), 0);
	assert_int_equal(jid_format(&j, out, sizeof(out)), 0);
	assert_string_equal(out, buf);
	assert_int_equal(jid_parse(out, &k), 0);
	assert_int_equal(k.user_len, JID_USER_MAX);
	assert_int_equal(k.agent, 65535);
	assert_int_equal(k.device, 65535);
}

/* --- jid_user_of, jid_with_device, jid_make ---------------------------- */

static void
test_jid_user_of__drops_agent_and_device(void **state)
{
	char	 out[JID_MAX];

	(void)state;
	assert_true(jid_user_of("15551234567.1:3@s.whatsapp.net", out,
	    sizeof(out)));
	assert_string_equal(out, "15551234567@s.whatsapp.net");
	assert_true(jid_user_of("15551234567:0@s.whatsapp.net", out,
	    sizeof(out)));
	assert_string_equal(out, "15551234567@s.whatsapp.net");
	assert_true(jid_user_of("100000000000001@lid", out, sizeof(out)));
	assert_string_equal(out, "100000000000001@lid");
	assert_true(jid_user_of("120363012345678901@g.us", out, sizeof(out)));
	assert_string_equal(out, "120363012345678901@g.us");
}

static void
test_jid_user_of__is_idempotent(void **state)
{
	char	 once[JID_MAX], twice[JID_MAX];

	(void)state;
	assert_true(jid_user_of("1.2:3@lid", once, sizeof(once)));
	assert_true(jid_user_of(once, twice, sizeof(twice)));
	assert_string_equal(once, twice);
}

static void
test_jid_user_of__works_in_place(void **state)
{
	char	 s[JID_MAX] = "15551234567.1:3@s.whatsapp.net";

	(void)state;
	assert_true(jid_user_of(s, s, sizeof(s)));
	assert_string_equal(s, "15551234567@s.whatsapp.net");
}

static void
test_jid_user_of__fails__on_bad_server_only_or_small(void **state)
{
	char	 out[JID_MAX];

	(void)state;
	out[0] = 'x';
	assert_false(jid_user_of("", out, sizeof(out)));
	assert_string_equal(out, "");
	out[0] = 'x';
	assert_false(jid_user_of("a@b@c", out, sizeof(out)));
	assert_string_equal(out, "");
	out[0] = 'x';
	assert_false(jid_user_of("s.whatsapp.net", out, sizeof(out)));
	assert_string_equal(out, "");
	/* "1@lid" needs 6 bytes. */
	assert_false(jid_user_of("1:2@lid", out, 5));
	assert_string_equal(out, "");
	assert_true(jid_user_of("1:2@lid", out, 6));
	assert_string_equal(out, "1@lid");
	assert_false(jid_user_of("1@lid", NULL, 0));
}

static void
test_jid_with_device__writes_the_ad_jid(void **state)
{
	char	 out[JID_MAX];

	(void)state;
	assert_true(jid_with_device("15551234567@s.whatsapp.net", 7, out,
	    sizeof(out)));
	assert_string_equal(out, "15551234567:7@s.whatsapp.net");
	/* A device replaces the one s has; the agent stays. */
	assert_true(jid_with_device("15551234567.1:3@s.whatsapp.net", 65535,
	    out, sizeof(out)));
	assert_string_equal(out, "15551234567.1:65535@s.whatsapp.net");
	/* Device 0 is the user form. */
	assert_true(jid_with_device("1:3@lid", 0, out, sizeof(out)));
	assert_string_equal(out, "1@lid");
	assert_int_equal(jid_device_of("1:3@lid"), 3);
}

static void
test_jid_with_device__works_in_place_and_grows(void **state)
{
	char	 s[JID_MAX] = "1@lid";

	(void)state;
	assert_true(jid_with_device(s, 12345, s, sizeof(s)));
	assert_string_equal(s, "1:12345@lid");
}

static void
test_jid_with_device__fails__on_bad_input(void **state)
{
	char	 out[JID_MAX];

	(void)state;
	out[0] = 'x';
	assert_false(jid_with_device("1@lid", 65536, out, sizeof(out)));
	assert_string_equal(out, "");
	out[0] = 'x';
	assert_false(jid_with_device("lid", 1, out, sizeof(out)));
	assert_string_equal(out, "");
	out[0] = 'x';
	assert_false(jid_with_device("", 1, out, sizeof(out)));
	assert_string_equal(out, "");
	out[0] = 'x';
	assert_false(jid_with_device("1@lid", 1, out, 7));	/* "1:1@lid" */
	assert_string_equal(out, "");
	assert_true(jid_with_device("1@lid", 1, out, 8));
	assert_string_equal(out, "1:1@lid");
}

static void
test_jid_make__joins_user_and_server(void **state)
{
	char	 out[JID_MAX];

	(void)state;
	assert_true(jid_make("15551234567", JID_SERVER_PN, out, sizeof(out)));
	assert_string_equal(out, "15551234567@s.whatsapp.net");
	assert_true(jid_make("", JID_SERVER_GROUP, out, sizeof(out)));
	assert_string_equal(out, "g.us");
	assert_true(jid_make(NULL, JID_SERVER_LID, out, sizeof(out)));
	assert_string_equal(out, "lid");
	/* Nothing is checked. */
	assert_true(jid_make("a:b", "", out, sizeof(out)));
	assert_string_equal(out, "a:b@");
}

static void
test_jid_make__works_in_place(void **state)
{
	char	 s[JID_MAX] = "15551234567";

	(void)state;
	assert_true(jid_make(s, JID_SERVER_LID, s, sizeof(s)));
	assert_string_equal(s, "15551234567@lid");
}

static void
test_jid_make__fails__when_it_does_not_fit(void **state)
{
	char	 out[16];

	(void)state;
	assert_false(jid_make("12345", "lid", out, 9));	/* "12345@lid" */
	assert_string_equal(out, "");
	assert_true(jid_make("12345", "lid", out, 10));
	assert_string_equal(out, "12345@lid");
	assert_false(jid_make(NULL, "lid", out, 3));
	assert_string_equal(out, "");
	assert_true(jid_make(NULL, "lid", out, 4));
	assert_false(jid_make(NULL, "lid", NULL, 0));
}

/* --- jid_device_of, jid_server_of, jid_server_is, predicates ----------- */

static void
test_jid_device_of__reads_the_device__or_0(void **state)
{
	(void)state;
	assert_int_equal(jid_device_of("1:42@s.whatsapp.net"), 42);
	assert_int_equal(jid_device_of("1.3:65535@lid"), 65535);
	assert_int_equal(jid_device_of("1:0@lid"), 0);
	assert_int_equal(jid_device_of("1@lid"), 0);
	assert_int_equal(jid_device_of("1.3@lid"), 0);	/* an agent only */
	assert_int_equal(jid_device_of("lid"), 0);
	assert_int_equal(jid_device_of(""), 0);
	assert_int_equal(jid_device_of("1:65536@lid"), 0);	/* bad */
}

static void
test_jid_server_of__borrows_what_follows_the_at(void **state)
{
	const char	*s = "1:2@s.whatsapp.net", *e = "";

	(void)state;
	assert_ptr_equal(jid_server_of(s), s + 4);
	assert_string_equal(jid_server_of("g.us"), "g.us");
	assert_ptr_equal(jid_server_of(e), e);
	assert_string_equal(jid_server_of("1@"), "");
	assert_string_equal(jid_server_of("@lid"), "lid");
}

static void
test_jid_server_is__compares_the_whole_server(void **state)
{
	(void)state;
	assert_true(jid_server_is("1@s.whatsapp.net", JID_SERVER_PN));
	assert_true(jid_server_is("s.whatsapp.net", JID_SERVER_PN));
	assert_true(jid_server_is("1.1:1@hosted", JID_SERVER_HOSTED));
	assert_false(jid_server_is("1@s.whatsapp.net", "whatsapp.net"));
	assert_false(jid_server_is("1@s.whatsapp.net", "s.whatsapp.ne"));
	assert_false(jid_server_is("1@s.whatsapp.netx", JID_SERVER_PN));
	assert_false(jid_server_is("1@S.WHATSAPP.NET", JID_SERVER_PN));
	assert_false(jid_server_is("1@lid", ""));
	/* Only a JID that parses. */
	assert_false(jid_server_is("@s.whatsapp.net", JID_SERVER_PN));
	assert_false(jid_server_is("a@b@s.whatsapp.net", JID_SERVER_PN));
	assert_false(jid_server_is("", ""));
}

static void
test_jid_is__each_predicate__true_and_false(void **state)
{
	(void)state;
	assert_true(jid_is_pn("15551234567@s.whatsapp.net"));
	assert_true(jid_is_pn("15551234567:3@s.whatsapp.net"));
	assert_false(jid_is_pn("15551234567@lid"));
	assert_false(jid_is_pn("15551234567@c.us"));
	assert_false(jid_is_pn("x@s.whatsapp.net.evil"));

	assert_true(jid_is_lid("100000000000001@lid"));
	assert_true(jid_is_lid("100000000000001:1@lid"));
	assert_false(jid_is_lid("100000000000001@hosted.lid"));
	assert_false(jid_is_lid("100000000000001@s.whatsapp.net"));

	assert_true(jid_is_group("120363012345678901@g.us"));
	assert_false(jid_is_group("120363012345678901@s.whatsapp.net"));
	assert_false(jid_is_group("x@g.us.evil"));

	assert_true(jid_is_broadcast("status@broadcast"));
	assert_false(jid_is_broadcast("status@g.us"));

	assert_true(jid_is_newsletter("120363000000000001@newsletter"));
	assert_false(jid_is_newsletter("120363000000000001@g.us"));

	/* "" and a JID that does not parse are none of them. */
	assert_false(jid_is_pn(""));
	assert_false(jid_is_lid("@lid"));
	assert_false(jid_is_group("1@2@g.us"));
	assert_false(jid_is_broadcast("1:x@broadcast"));
	assert_false(jid_is_newsletter("1@newsletter:1"));

	/* The server alone names no user, group or list. */
	assert_false(jid_is_pn("s.whatsapp.net"));
	assert_false(jid_is_lid("lid"));
	assert_false(jid_is_group("g.us"));
	assert_false(jid_is_broadcast("broadcast"));
	assert_false(jid_is_newsletter("newsletter"));
	assert_true(jid_server_is("g.us", JID_SERVER_GROUP));
}

static void
test_jid_on__compares_a_parsed_jids_server(void **state)
{
	struct jid	 j;

	(void)state;
	assert_int_equal(jid_parse("120363012345678901@g.us", &j), 0);
	assert_true(jid_on(&j, JID_SERVER_GROUP));
	assert_false(jid_on(&j, JID_SERVER_PN));
	assert_false(jid_on(&j, "g.u"));
	assert_false(jid_on(&j, "g.uss"));
	assert_int_equal(jid_parse("lid", &j), 0);
	assert_true(jid_on(&j, JID_SERVER_LID));
}

static void
test_jid_is_user__is_a_pn_or_lid_user(void **state)
{
	(void)state;
	assert_true(jid_is_user("15551234567@s.whatsapp.net"));
	assert_true(jid_is_user("15551234567.1:3@s.whatsapp.net"));
	assert_true(jid_is_user("100000000000001@lid"));
	assert_true(jid_is_user("100000000000001:0@lid"));
	assert_false(jid_is_user("s.whatsapp.net"));	/* server-only */
	assert_false(jid_is_user("lid"));
	assert_false(jid_is_user("120363012345678901@g.us"));
	assert_false(jid_is_user("status@broadcast"));
	assert_false(jid_is_user("1@hosted"));
	assert_false(jid_is_user(""));
	assert_false(jid_is_user("@s.whatsapp.net"));
}

static void
test_jid_is_device__needs_the_colon__even_for_0(void **state)
{
	(void)state;
	assert_true(jid_is_device("1:0@s.whatsapp.net"));
	assert_true(jid_is_device("1.2:5@lid"));
	assert_false(jid_is_device("1@s.whatsapp.net"));
	assert_false(jid_is_device("1.2@lid"));	/* an agent only */
	assert_false(jid_is_device("s.whatsapp.net"));
	assert_false(jid_is_device(""));
	assert_false(jid_is_device("1:x@lid"));
}

/* --- jid_equal, jid_same_user ------------------------------------------ */

static void
test_jid_equal__compares_every_part(void **state)
{
	(void)state;
	assert_true(jid_equal("1@lid", "1@lid"));
	assert_true(jid_equal("1:0@lid", "1@lid"));	/* :0 is none */
	assert_true(jid_equal("1@lid", "1:0@lid"));
	assert_true(jid_equal("1.0:0@lid", "1@lid"));
	assert_true(jid_equal("1:007@lid", "1:7@lid"));
	assert_true(jid_equal("1.2:3@lid", "1.2:3@lid"));
	assert_true(jid_equal("g.us", "g.us"));

	assert_false(jid_equal("1@lid", "2@lid"));
	assert_false(jid_equal("1@lid", "1@s.whatsapp.net"));
	assert_false(jid_equal("1:1@lid", "1:2@lid"));
	assert_false(jid_equal("1:1@lid", "1@lid"));
	assert_false(jid_equal("1.1@lid", "1@lid"));
	assert_false(jid_equal("12@lid", "1@lid"));
	assert_false(jid_equal("lid", "1@lid"));	/* server-only */
	assert_false(jid_equal("1@lid", "lid"));
	assert_false(jid_equal("g.us", "lid"));
}

static void
test_jid_equal__fails__when_either_does_not_parse(void **state)
{
	(void)state;
	assert_false(jid_equal("", ""));
	assert_false(jid_equal("@lid", "@lid"));
	assert_false(jid_equal("1@lid", "1@lid@"));
	assert_false(jid_equal("1:x@lid", "1@lid"));
}

static void
test_jid_same_user__ignores_agent_and_device(void **state)
{
	(void)state;
	assert_true(jid_same_user("1@lid", "1:3@lid"));
	assert_true(jid_same_user("1.1:3@lid", "1:4@lid"));
	assert_true(jid_same_user("1@lid", "1@lid"));
	assert_false(jid_same_user("1@lid", "1@s.whatsapp.net"));
	assert_false(jid_same_user("1@lid", "12@lid"));
	assert_false(jid_same_user("1@lid", "2:1@lid"));
	assert_false(jid_same_user("lid", "lid"));	/* server-only */
	assert_false(jid_same_user("", "1@lid"));
	assert_false(jid_same_user("1@lid", ""));
	assert_false(jid_same_user("1@lid", "1@lid@x"));
}

/* --- jid_phone_of, jid_from_phone -------------------------------------- */

static void
test_jid_phone_of__returns_the_digits_of_a_pn_user(void **state)
{
	char	 out[JID_MAX];

	(void)state;
	assert_true(jid_phone_of("15551234567@s.whatsapp.net", out,
	    sizeof(out)));
	assert_string_equal(out, "15551234567");
	assert_true(jid_phone_of("15551234567.1:3@s.whatsapp.net", out,
	    sizeof(out)));
	assert_string_equal(out, "15551234567");
	/* Exactly fits. */
	assert_true(jid_phone_of("15551234567@s.whatsapp.net", out, 12));
	assert_string_equal(out, "15551234567");
}

static void
test_jid_phone_of__fails__unless_a_pn_jid_of_digits(void **state)
{
	static const char *const bad[] = {
		"15551234567@lid",
		"15551234567@g.us",
		"15551234567@c.us",
		"s.whatsapp.net",
		"+15551234567@s.whatsapp.net",
		"1555123456a@s.whatsapp.net",
		"1555-123@s.whatsapp.net",
		"@s.whatsapp.net",
		"",
	};
	char	 out[JID_MAX];
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		out[0] = 'x';
		if (jid_phone_of(bad[i], out, sizeof(out)))
			fail_msg("a phone in: %s", bad[i]);
		assert_string_equal(out, "");
	}
	assert_false(jid_phone_of("15551234567@s.whatsapp.net", out, 11));
	assert_string_equal(out, "");
	assert_false(jid_phone_of("15551234567@s.whatsapp.net", NULL, 0));
}

static void
test_jid_phone_of__works_in_place(void **state)
{
	char	 s[JID_MAX] = "15551234567:2@s.whatsapp.net";

	(void)state;
	assert_true(jid_phone_of(s, s, sizeof(s)));
	assert_string_equal(s, "15551234567");
}

static void
test_jid_from_phone__writes_the_pn_jid(void **state)
{
	char	 out[JID_MAX];

	(void)state;
	assert_true(jid_from_phone("15551234567", 11, out, sizeof(out)));
	assert_string_equal(out, "15551234567@s.whatsapp.net");
	/* Only len bytes are read. */
	assert_true(jid_from_phone("15551234567xyz", 4, out, sizeof(out)));
	assert_string_equal(out, "1555@s.whatsapp.net");
	assert_true(jid_from_phone("1", 1, out, sizeof(out)));
	assert_string_equal(out, "1@s.whatsapp.net");
	assert_true(jid_from_phone("12345678901234567890", 20, out,
	    sizeof(out)));
	assert_string_equal(out, "12345678901234567890@s.whatsapp.net");
	/* And back. */
	assert_true(jid_phone_of(out, out, sizeof(out)));
	assert_string_equal(out, "12345678901234567890");
}

static void
test_jid_from_phone__fails__on_bad_numbers(void **state)
{
	char	 out[JID_MAX];

	(void)state;
	out[0] = 'x';
	assert_false(jid_from_phone("", 0, out, sizeof(out)));
	assert_string_equal(out, "");
	assert_false(jid_from_phone(NULL, 0, out, sizeof(out)));
	assert_false(jid_from_phone("123456789012345678901", 21, out,
	    sizeof(out)));
	assert_string_equal(out, "");
	assert_false(jid_from_phone("+1555", 5, out, sizeof(out)));
	assert_false(jid_from_phone("1555 123", 8, out, sizeof(out)));
	assert_false(jid_from_phone("1555\0" "123", 8, out, sizeof(out)));
	assert_false(jid_from_phone("15a5", 4, out, sizeof(out)));
	assert_string_equal(out, "");
	/* "1@s.whatsapp.net" needs 17 bytes. */
	assert_false(jid_from_phone("1", 1, out, 16));
	assert_string_equal(out, "");
	assert_true(jid_from_phone("1", 1, out, 17));
	assert_false(jid_from_phone("1", 1, NULL, 0));
}

static void
test_jid_from_phone__works_in_place(void **state)
{
	char	 s[JID_MAX] = "15551234567";

	(void)state;
	assert_true(jid_from_phone(s, strlen(s), s, sizeof(s)));
	assert_string_equal(s, "15551234567@s.whatsapp.net");
}


/* jid_next_mention(): '@' and 5 to 20 digits not followed by another. */
static void
test_jid_next_mention__finds_each_user_part_in_turn(void **state)
{
	const char	*t = "a@1234 @15550000001, @123456789012345678901 "
			    "x@100000000000001!";
	size_t		 len = strlen(t), off = 0, n = 0, from = 0;

	(void)state;
	assert_true(jid_next_mention(t, len, from, &off, &n));
	assert_int_equal(n, 11);
	assert_memory_equal(t + off, "15550000001", 11);
	assert_int_equal(t[off - 1], '@');
	from = off + n;
	/* 21 digits is no mention; the LID after it is */
	assert_true(jid_next_mention(t, len, from, &off, &n));
	assert_int_equal(n, 15);
	assert_memory_equal(t + off, "100000000000001", 15);
	assert_false(jid_next_mention(t, len, off + n, &off, &n));
	/* within len only */
	assert_false(jid_next_mention("@15550000001", 5, 0, &off, &n));
	assert_false(jid_next_mention("", 0, 0, &off, &n));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jid_parse__splits_user_and_server__of_a_pn_jid),
		cmocka_unit_test(test_jid_parse__reads_device_and_agent__of_an_ad_jid),
		cmocka_unit_test(test_jid_parse__tells_device_0_from_none),
		cmocka_unit_test(test_jid_parse__reads_a_server_only_jid),
		cmocka_unit_test(test_jid_parse__reads_group_broadcast_and_other_servers),
		cmocka_unit_test(test_jid_parse__accepts_leading_zeros_and_the_limits),
		cmocka_unit_test(test_jid_parse__fails__on_empty),
		cmocka_unit_test(test_jid_parse__fails__on_two_ats),
		cmocka_unit_test(test_jid_parse__fails__on_an_empty_user_or_server),
		cmocka_unit_test(test_jid_parse__fails__on_a_colon_in_the_server),
		cmocka_unit_test(test_jid_parse__fails__on_bad_device_or_agent_numbers),
		cmocka_unit_test(test_jid_parse__fails__on_too_long),
		cmocka_unit_test(test_jid_format__writes_the_forms_whatsapp_writes),
		cmocka_unit_test(test_jid_format__drops_zero_agent_and_device_and_leading_zeros),
		cmocka_unit_test(test_jid_format__writes_a_hand_made_struct),
		cmocka_unit_test(test_jid_format__fails__when_it_does_not_fit),
		cmocka_unit_test(test_jid_format__fits_jid_max__for_the_longest_jid),
		cmocka_unit_test(test_jid_user_of__drops_agent_and_device),
		cmocka_unit_test(test_jid_user_of__is_idempotent),
		cmocka_unit_test(test_jid_user_of__works_in_place),
		cmocka_unit_test(test_jid_user_of__fails__on_bad_server_only_or_small),
		cmocka_unit_test(test_jid_with_device__writes_the_ad_jid),
		cmocka_unit_test(test_jid_with_device__works_in_place_and_grows),
		cmocka_unit_test(test_jid_with_device__fails__on_bad_input),
		cmocka_unit_test(test_jid_make__joins_user_and_server),
		cmocka_unit_test(test_jid_make__works_in_place),
		cmocka_unit_test(test_jid_make__fails__when_it_does_not_fit),
		cmocka_unit_test(test_jid_device_of__reads_the_device__or_0),
		cmocka_unit_test(test_jid_server_of__borrows_what_follows_the_at),
		cmocka_unit_test(test_jid_server_is__compares_the_whole_server),
		cmocka_unit_test(test_jid_is__each_predicate__true_and_false),
		cmocka_unit_test(test_jid_on__compares_a_parsed_jids_server),
		cmocka_unit_test(test_jid_is_user__is_a_pn_or_lid_user),
		cmocka_unit_test(test_jid_is_device__needs_the_colon__even_for_0),
		cmocka_unit_test(test_jid_equal__compares_every_part),
		cmocka_unit_test(test_jid_equal__fails__when_either_does_not_parse),
		cmocka_unit_test(test_jid_same_user__ignores_agent_and_device),
		cmocka_unit_test(test_jid_phone_of__returns_the_digits_of_a_pn_user),
		cmocka_unit_test(test_jid_phone_of__fails__unless_a_pn_jid_of_digits),
		cmocka_unit_test(test_jid_phone_of__works_in_place),
		cmocka_unit_test(test_jid_from_phone__writes_the_pn_jid),
		cmocka_unit_test(test_jid_from_phone__fails__on_bad_numbers),
		cmocka_unit_test(test_jid_from_phone__works_in_place),
		cmocka_unit_test(test_jid_next_mention__finds_each_user_part_in_turn),
	};

	return cmocka_run_group_tests_name("base-jid", tests, NULL, NULL);
}
