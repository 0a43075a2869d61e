/* SPDX-License-Identifier: GPL-3.0-or-later */
/* base/jid.c -- WhatsApp JIDs as text (base/jid.h). */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/jid.h"

/* Decimal 0..65535 from p[0..len); false on anything else. */
static bool
parse_u16(const char *p, size_t len, uint16_t *out)
{
	unsigned long	 v = 0;
	size_t		 i;

	if (len == 0 || len > 5)
		return false;
	for (i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (unsigned long)(p[i] - '0');
	}
	if (v > 65535)
		return false;
	*out = (uint16_t)v;
	return true;
}

int
jid_parse(const char *s, struct jid *out)
{
	struct jid	 j = { 0 };
	const char	*at = strchr(s, '@'), *colon, *dot, *uend;
	size_t		 ulen, len;

	if (at == NULL) {
		/* A server alone: no ':' in it. */
		len = strnlen(s, JID_MAX);
		if (len == 0 || len >= JID_MAX || memchr(s, ':', len) != NULL)
			return -EINVAL;
		j.server = s;
		j.server_len = len;
		goto done;
	}
	ulen = (size_t)(at - s);
	if (ulen == 0 || ulen >= JID_MAX)
		return -EINVAL;
	len = ulen + 1 + strnlen(at + 1, JID_MAX - ulen);
	if (len >= JID_MAX || memchr(at + 1, '@', len - ulen - 1) != NULL ||
	    memchr(at + 1, ':', len - ulen - 1) != NULL)
		return -EINVAL;
	/* "user[.agent][:device]": the first ':' ends the user and agent,
	 * the first '.' before it starts the agent (as whatsmeow's ParseJID
	 * reads them). */
	uend = at;
	if ((colon = memchr(s, ':', ulen)) != NULL) {
		if (!parse_u16(colon + 1, (size_t)(at - colon - 1), &j.device))
			return -EINVAL;
		j.has_device = true;
		uend = colon;
	}
	if ((dot = memchr(s, '.', (size_t)(uend - s))) != NULL) {
		if (!parse_u16(dot + 1, (size_t)(uend - dot - 1), &j.agent))
			return -EINVAL;
		uend = dot;
	}
	j.user = s;
	j.user_len = (size_t)(uend - s);
	if (j.user_len == 0 || j.user_len > JID_USER_MAX)
		return -EINVAL;
	j.server = at + 1;
	j.server_len = len - ulen - 1;
done:
	if (j.server_len == 0 || j.server_len > JID_SERVER_MAX)
		return -EINVAL;
	*out = j;
	return 0;
}

/* Append p[0..len) to out[0..size) at *off; false when it does not fit
 * (with its NUL).  p may be NULL when len is 0. */
static bool
put(char *out, size_t size, size_t *off, const char *p, size_t len)
{
	if (len >= size - *off)
		return false;
	if (len > 0)
		memmove(out + *off, p, len);
	*off += len;
	return true;
}

int
jid_format(const struct jid *j, char *out, size_t size)
{
	char	 agent[8] = "", device[8] = "";
	size_t	 off = 0;
	bool	 ok = size > 0;

	if (j->agent != 0)
		snprintf(agent, sizeof(agent), ".%u", (unsigned)j->agent);
	if (j->device != 0)
		snprintf(device, sizeof(device), ":%u", (unsigned)j->device);
	if (ok && j->user_len > 0)
		ok = put(out, size, &off, j->user, j->user_len) &&
		    put(out, size, &off, agent, strlen(agent)) &&
		    put(out, size, &off, device, strlen(device)) &&
		    put(out, size, &off, "@", 1);
	if (ok)
		ok = put(out, size, &off, j->server, j->server_len);
	if (!ok) {
		if (size > 0)
			out[0] = '\0';
		return -ENAMETOOLONG;
	}
	out[off] = '\0';
	return 0;
}

/* Write j with agent and device replaced; the common tail of the user
 * and device forms.  out may overlap the text j points into. */
static bool
format_as(struct jid j, uint16_t agent, uint16_t device, char *out,
    size_t size)
{
	char	 tmp[JID_MAX];

	j.agent = agent;
	j.device = device;
	if (jid_format(&j, tmp, sizeof(tmp)) != 0 || strlen(tmp) >= size) {
		if (size > 0)
			out[0] = '\0';
		return false;
	}
	memcpy(out, tmp, strlen(tmp) + 1);
	return true;
}

bool
jid_user_of(const char *s, char *out, size_t size)
{
	struct jid	 j;

	if (jid_parse(s, &j) != 0 || j.user_len == 0) {
		if (size > 0)
			out[0] = '\0';
		return false;
	}
	return format_as(j, 0, 0, out, size);
}

bool
jid_with_device(const char *s, unsigned device, char *out, size_t size)
{
	struct jid	 j;

	if (device > 65535 || jid_parse(s, &j) != 0 || j.user_len == 0) {
		if (size > 0)
			out[0] = '\0';
		return false;
	}
	return format_as(j, j.agent, (uint16_t)device, out, size);
}

bool
jid_make(const char *user, const char *server, char *out, size_t size)
{
	size_t	 ulen = user != NULL ? strlen(user) : 0, slen = strlen(server);
	size_t	 at = ulen > 0 ? ulen + 1 : 0;

	if (slen >= size || at >= size - slen) {
		if (size > 0)
			out[0] = '\0';
		return false;
	}
	/* The server first, past where the user goes: out may be user. */
	memmove(out + at, server, slen + 1);
	if (ulen > 0) {
		memmove(out, user, ulen);
		out[ulen] = '@';
	}
	return true;
}

unsigned
jid_device_of(const char *s)
{
	struct jid	 j;

	return jid_parse(s, &j) == 0 ? j.device : 0;
}

const char *
jid_server_of(const char *s)
{
	const char	*at = strchr(s, '@');

	return at != NULL ? at + 1 : s;
}

bool
jid_server_is(const char *s, const char *server)
{
	struct jid	 j;

	return jid_parse(s, &j) == 0 && jid_on(&j, server);
}

bool
jid_on(const struct jid *j, const char *server)
{
	size_t	 n = strlen(server);

	return j->server_len == n && memcmp(j->server, server, n) == 0;
}

/* s has a user part and its server is exactly server. */
static bool
user_on(const char *s, const char *server)
{
	struct jid	 j;

	return jid_parse(s, &j) == 0 && j.user_len > 0 && jid_on(&j, server);
}

bool
jid_is_pn(const char *s)
{
	return user_on(s, JID_SERVER_PN);
}

bool
jid_is_lid(const char *s)
{
	return user_on(s, JID_SERVER_LID);
}

bool
jid_is_group(const char *s)
{
	return user_on(s, JID_SERVER_GROUP);
}

bool
jid_is_broadcast(const char *s)
{
	return user_on(s, JID_SERVER_BROADCAST);
}

bool
jid_is_newsletter(const char *s)
{
	return user_on(s, JID_SERVER_NEWSLETTER);
}

bool
jid_is_user(const char *s)
{
	struct jid	 j;

	return jid_parse(s, &j) == 0 && j.user_len > 0 &&
	    (jid_on(&j, JID_SERVER_PN) || jid_on(&j, JID_SERVER_LID));
}

bool
jid_is_device(const char *s)
{
	struct jid	 j;

	return jid_parse(s, &j) == 0 && j.has_device;
}

/* Same user part and server of two parsed JIDs. */
static bool
same_user(const struct jid *a, const struct jid *b)
{
	return a->user_len > 0 && a->user_len == b->user_len &&
	    a->server_len == b->server_len &&
	    memcmp(a->user, b->user, a->user_len) == 0 &&
	    memcmp(a->server, b->server, a->server_len) == 0;
}

bool
jid_equal(const char *a, const char *b)
{
	struct jid	 ja, jb;

	if (jid_parse(a, &ja) != 0 || jid_parse(b, &jb) != 0)
		return false;
	if (ja.user_len == 0 && jb.user_len == 0)
		return ja.server_len == jb.server_len &&
		    memcmp(ja.server, jb.server, ja.server_len) == 0;
	return same_user(&ja, &jb) && ja.agent == jb.agent &&
	    ja.device == jb.device;
}

bool
jid_same_user(const char *a, const char *b)
{
	struct jid	 ja, jb;

	return a[0] != '\0' && b[0] != '\0' && jid_parse(a, &ja) == 0 &&
	    jid_parse(b, &jb) == 0 && same_user(&ja, &jb);
}

bool
jid_phone_of(const char *s, char *out, size_t size)
{
	struct jid	 j;
	size_t		 i;
	bool		 ok;

	ok = jid_parse(s, &j) == 0 && j.user_len > 0 && j.user_len < size &&
	    jid_on(&j, JID_SERVER_PN);
	for (i = 0; ok && i < j.user_len; i++)
		ok = j.user[i] >= '0' && j.user[i] <= '9';
	if (!ok) {
		if (size > 0)
			out[0] = '\0';
		return false;
	}
	memmove(out, j.user, j.user_len);	/* out may be s */
	out[j.user_len] = '\0';
	return true;
}

bool
jid_from_phone(const char *p, size_t len, char *out, size_t size)
{
	size_t	 i, slen = strlen(JID_SERVER_PN);
	bool	 ok = len > 0 && len <= 20 && size > len + 1 + slen;

	for (i = 0; ok && i < len; i++)
		ok = p[i] >= '0' && p[i] <= '9';
	if (!ok) {
		if (size > 0)
			out[0] = '\0';
		return false;
	}
	memmove(out, p, len);	/* out may be p */
	out[len] = '@';
	memcpy(out + len + 1, JID_SERVER_PN, slen + 1);
	return true;
}

bool
jid_next_mention(const char *t, size_t len, size_t from, size_t *off,
    size_t *n)
{
	const char	*at;
	size_t		 i, k;

	while (from < len &&
	    (at = memchr(t + from, '@', len - from)) != NULL) {
		i = (size_t)(at - t) + 1;
		for (k = 0; i + k < len && t[i + k] >= '0' && t[i + k] <= '9';
		    k++)
			;
		if (k >= JID_MENTION_MIN && k <= JID_MENTION_MAX) {
			*off = i;
			*n = k;
			return true;
		}
		from = i + k;
	}
	return false;
}
