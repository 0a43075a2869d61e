/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-base-jid.c -- fuzz target for base/jid.  The input is
 * two texts, split at its first newline (a NUL ends the text before it).
 * Contract: any text either parses or jid_parse returns -EINVAL; no crash,
 * no read outside the text.  One that parses formats in JID_MAX bytes and
 * the text written parses to the same user, server, agent and device and
 * formats to itself; jid_user_of and jid_with_device agree with the parse
 * and jid_user_of is idempotent (also in place); the predicates say the
 * same of a JID and its formatted text and say no to what does not parse;
 * jid_equal is reflexive and symmetric, jid_same_user symmetric, and
 * jid_equal implies jid_same_user for user JIDs; jid_phone_of and
 * jid_from_phone invert each other.  A violation aborts.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jid.h"
#include "base/xmalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do {							\
	if (!(c)) {							\
		fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c);	\
		abort();						\
	}								\
} while (0)

/* Two parsed JIDs have the same user, server, agent and device. */
static bool
same_fields(const struct jid *a, const struct jid *b)
{
	/* A server-only JID's user is NULL: no memcmp over it. */
	return a->user_len == b->user_len && a->server_len == b->server_len &&
	    (a->user_len == 0 || memcmp(a->user, b->user, a->user_len) == 0) &&
	    memcmp(a->server, b->server, a->server_len) == 0 &&
	    a->agent == b->agent && a->device == b->device;
}

/* Every function says no to s, which does not parse. */
static void
check_bad(const char *s)
{
	char	 out[JID_MAX];

	CHECK(!jid_user_of(s, out, sizeof(out)) && out[0] == '\0');
	CHECK(!jid_with_device(s, 1, out, sizeof(out)) && out[0] == '\0');
	CHECK(!jid_phone_of(s, out, sizeof(out)) && out[0] == '\0');
	CHECK(jid_device_of(s) == 0);
	CHECK(!jid_is_pn(s) && !jid_is_lid(s) && !jid_is_group(s) &&
	    !jid_is_broadcast(s) && !jid_is_newsletter(s) && !jid_is_user(s) &&
	    !jid_is_device(s));
	CHECK(!jid_equal(s, s) && !jid_same_user(s, s));
}

/* The predicates say the same of s and t, two texts of one JID. */
static void
check_predicates(const char *s, const char *t, const struct jid *j)
{
	CHECK(jid_is_pn(s) == jid_is_pn(t));
	CHECK(jid_is_lid(s) == jid_is_lid(t));
	CHECK(jid_is_group(s) == jid_is_group(t));
	CHECK(jid_is_broadcast(s) == jid_is_broadcast(t));
	CHECK(jid_is_newsletter(s) == jid_is_newsletter(t));
	CHECK(jid_is_user(s) == jid_is_user(t));
	CHECK(jid_is_user(s) == (j->user_len > 0 &&
	    (jid_is_pn(s) || jid_is_lid(s))));
	CHECK(jid_is_device(s) == j->has_device);
	CHECK(jid_device_of(s) == j->device && jid_device_of(t) == j->device);
	CHECK(jid_server_of(s) == j->server);
}

/* jid_format and jid_parse round-trip; t gets the formatted text. */
static void
check_format(const char *s, const struct jid *j, char *t)
{
	struct jid	 k;
	char		 again[JID_MAX], small[JID_MAX];
	size_t		 n;

	CHECK(jid_format(j, t, JID_MAX) == 0);
	n = strlen(t);
	CHECK(n <= strlen(s));		/* canonical: never longer */
	CHECK(jid_parse(t, &k) == 0 && same_fields(j, &k));
	CHECK(k.has_device == (k.user_len > 0 && k.device != 0));
	CHECK(jid_format(&k, again, sizeof(again)) == 0 &&
	    strcmp(again, t) == 0);
	/* Exactly its length fits, one byte less does not. */
	CHECK(jid_format(j, small, n + 1) == 0 && strcmp(small, t) == 0);
	CHECK(jid_format(j, small, n) == -ENAMETOOLONG && small[0] == '\0');
	CHECK(jid_equal(s, t) && jid_equal(t, s) && jid_equal(s, s));
	check_predicates(s, t, j);
}

/* jid_user_of and jid_with_device against the parse j of s. */
static void
check_user_forms(const char *s, const struct jid *j, unsigned dev)
{
	struct jid	 u;
	char		 user[JID_MAX], twice[JID_MAX], w[JID_MAX];
	char		 made[JID_MAX];

	if (j->user_len == 0) {
		CHECK(!jid_user_of(s, user, sizeof(user)) && user[0] == '\0');
		CHECK(!jid_with_device(s, dev, w, sizeof(w)) && w[0] == '\0');
		CHECK(!jid_same_user(s, s));
		return;
	}
	CHECK(jid_user_of(s, user, sizeof(user)));
	CHECK(jid_parse(user, &u) == 0 && u.agent == 0 && u.device == 0 &&
	    !u.has_device && u.user_len == j->user_len &&
	    memcmp(u.user, j->user, u.user_len) == 0 &&
	    u.server_len == j->server_len &&
	    memcmp(u.server, j->server, u.server_len) == 0);
	CHECK(jid_user_of(user, twice, sizeof(twice)) &&
	    strcmp(user, twice) == 0);
	CHECK(jid_user_of(twice, twice, sizeof(twice)) &&
	    strcmp(user, twice) == 0);
	CHECK(jid_same_user(s, user) && jid_same_user(user, s));
	CHECK(jid_equal(s, user) == (j->agent == 0 && j->device == 0));
	/* The two halves joined again. */
	memcpy(made, j->user, j->user_len);
	made[j->user_len] = '\0';
	memcpy(twice, j->server, j->server_len);
	twice[j->server_len] = '\0';
	CHECK(jid_make(made, twice, made, sizeof(made)) &&
	    strcmp(made, user) == 0);

	CHECK(jid_with_device(s, dev, w, sizeof(w)));
	CHECK(jid_device_of(w) == dev && jid_is_device(w) == (dev != 0));
	CHECK(jid_same_user(s, w) && jid_same_user(w, s));
	CHECK(jid_with_device(w, j->device, w, sizeof(w)));
	CHECK(jid_equal(s, w));
}

/* jid_phone_of of s and jid_from_phone of what it gives back. */
static void
check_phone(const char *s, const struct jid *j)
{
	char	 phone[JID_MAX], back[JID_MAX], user[JID_MAX];
	size_t	 i, n;

	if (!jid_phone_of(s, phone, sizeof(phone))) {
		CHECK(phone[0] == '\0');
		return;
	}
	n = strlen(phone);
	CHECK(jid_is_pn(s) && n == j->user_len && n > 0);
	for (i = 0; i < n; i++)
		CHECK(phone[i] >= '0' && phone[i] <= '9');
	CHECK(jid_from_phone(phone, n, back, sizeof(back)) == (n <= 20));
	if (n <= 20) {
		CHECK(jid_user_of(s, user, sizeof(user)) &&
		    strcmp(back, user) == 0);
		CHECK(jid_from_phone(phone, n, phone, sizeof(phone)) &&
		    strcmp(phone, back) == 0);
	}
}

/* The checks of one text s. */
static void
check_one(const char *s, unsigned dev)
{
	struct jid	 j;
	char		 t[JID_MAX];
	size_t		 len = strlen(s);
	int		 rc = jid_parse(s, &j);

	if (rc != 0) {
		CHECK(rc == -EINVAL);
		check_bad(s);
		return;
	}
	CHECK(len > 0 && len < JID_MAX);
	CHECK(j.user_len <= JID_USER_MAX && j.server_len > 0 &&
	    j.server_len <= JID_SERVER_MAX);
	CHECK(j.server >= s && j.server + j.server_len == s + len);
	CHECK(j.user_len == 0 ? !j.has_device && j.agent == 0 :
	    j.user == s);
	check_format(s, &j, t);
	check_user_forms(s, &j, dev);
	check_phone(s, &j);
}

/* jid_equal and jid_same_user are symmetric; equal users are the same. */
static void
check_pair(const char *a, const char *b)
{
	char	 fa[JID_MAX], fb[JID_MAX];
	bool	 eq = jid_equal(a, b);

	CHECK(eq == jid_equal(b, a));
	CHECK(jid_same_user(a, b) == jid_same_user(b, a));
	if (eq && jid_is_user(a))
		CHECK(jid_same_user(a, b));
	/* Equal JIDs format alike. */
	if (eq) {
		struct jid	 ja, jb;

		CHECK(jid_parse(a, &ja) == 0 && jid_parse(b, &jb) == 0);
		CHECK(jid_format(&ja, fa, sizeof(fa)) == 0 &&
		    jid_format(&jb, fb, sizeof(fb)) == 0 &&
		    strcmp(fa, fb) == 0);
	}
}

/* jid_from_phone over raw bytes: what it accepts is a PN JID of them. */
static void
check_from_phone(const uint8_t *data, size_t size)
{
	char	 out[JID_MAX], phone[JID_MAX];

	if (!jid_from_phone((const char *)data, size, out, sizeof(out))) {
		CHECK(out[0] == '\0');
		return;
	}
	CHECK(size > 0 && size <= 20 && jid_is_pn(out) && jid_is_user(out));
	CHECK(jid_phone_of(out, phone, sizeof(phone)) &&
	    strlen(phone) == size && memcmp(phone, data, size) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*a, *b, *nl;
	unsigned	 dev = 0;

	if (size > 0)	/* a device number from the input's first bytes */
		dev = ((unsigned)data[0] << 8 | data[size / 2]) & 0xffff;
	a = xmalloc(size + 1);
	memcpy(a, data, size);
	a[size] = '\0';
	if ((nl = strchr(a, '\n')) != NULL) {
		*nl = '\0';
		b = nl + 1;
	} else
		b = a + strlen(a);
	check_one(a, dev);
	check_one(b, dev);
	check_pair(a, b);
	check_pair(a, a);
	check_from_phone(data, size);
	free(a);
	return 0;
}
