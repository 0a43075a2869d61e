/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/group.c -- the stanza half of group messaging (proto/group.h):
 * phash, the group <message>, the SKDM Message, the w:g2 iqs and the
 * readers of <group> and w:gp2 notifications.  Sections of protocol.md are
 * named where each fact is used.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "e2e.pb-c.h"
#include "base/err.h"
#include "proto/group.h"
#include "base/jid.h"
#include "proto/node.h"
#include "proto/reporting.h"
#include "base/xmalloc.h"

/* --- phash (10.3) --- */

static bool
is_hosted(const struct wa_jid *j)
{
	return wa_str_eqc(j->server, JID_SERVER_HOSTED) ||
	    wa_str_eqc(j->server, JID_SERVER_HOSTED_LID) || j->device == 99;
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void
b64_nopad(const uint8_t *p, size_t len, char *out)
{
	static const char	 tab[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t			 i, o = 0;
	uint32_t		 v;

	for (i = 0; i + 3 <= len; i += 3) {
		v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = tab[v >> 6 & 63];
		out[o++] = tab[v & 63];
	}
	/* 6 bytes only: no tail for the phash; kept general for safety. */
	if (len - i == 1) {
		v = (uint32_t)p[i] << 16;
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
	} else if (len - i == 2) {
		v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = tab[v >> 6 & 63];
	}
	out[o] = '\0';
}

int
wa_group_phash(const char *const *devs, size_t n,
    char out[WA_GROUP_PHASH_LEN + 1])
{
	char		**s = NULL;
	struct buf	 cat = BUF_INIT;
	struct wa_jid	 j;
	uint8_t		 h[WA_CRYPTO_HASH_LEN];
	size_t		 i, k = 0, len;
	int		 rc = -EINVAL;

	if ((devs == NULL && n > 0) || n > WA_GROUP_MAX_DEVICES)
		return -EINVAL;
	if (n > 0)
		s = xcalloc(n, sizeof(*s));
	for (i = 0; i < n; i++) {
		if (devs[i] == NULL || wa_jid_parse(devs[i], &j) != 0 ||
		    j.user.len == 0 || j.user.len > WA_GROUP_MAX_JID)
			goto out;
		if (is_hosted(&j))
			continue;
		/* "user.agent:device@server", agent 0 (10.3). */
		len = j.user.len + j.server.len + 16;
		s[k] = xmalloc(len);
		snprintf(s[k], len, "%.*s.0:%u@%.*s", (int)j.user.len,
		    j.user.p, j.device, (int)j.server.len, j.server.p);
		k++;
	}
	if (k > 0)
		qsort(s, k, sizeof(*s), cmp_str);
	for (i = 0; i < k; i++)
		buf_append(&cat, s[i], strlen(s[i]));
	wa_crypto_sha256(cat.p != NULL ? cat.p : (const uint8_t *)"",
	    cat.len, h);
	out[0] = '2';
	out[1] = ':';
	b64_nopad(h, 6, out + 2);
	rc = 0;
out:
	for (i = 0; i < k; i++)
		free(s[i]);
	free(s);
	buf_release(&cat);
	return rc;
}

/* --- the group <message> (10.2, 10.3) --- */

/* A group JID: "<id>@g.us" with a non-empty id and no device, read as
 * the node encoder will write it (wa_jid_parse: what goes on the wire). */
static bool
is_group_jid(const char *s)
{
	struct wa_jid	 j;

	return s != NULL && wa_jid_parse(s, &j) == 0 && j.user.len > 0 &&
	    j.device == 0 && wa_str_eqc(j.server, JID_SERVER_GROUP);
}

static const char *
enc_name(enum wa_msg_enc_type t)
{
	switch (t) {
	case WA_MSG_ENC_MSG:
		return "msg";
	case WA_MSG_ENC_PKMSG:
		return "pkmsg";
	case WA_MSG_ENC_SKMSG:
	case WA_MSG_ENC_OTHER:
		break;
	}
	return NULL;
}

int
wa_group_stanza(const struct wa_group_send *s, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*n, *ch, *to, *enc;
	const char	*type;
	size_t		 i, nk, k = 0;
	bool		 pkmsg = false, hide;

	if (s == NULL || s->id == NULL || !is_group_jid(s->to) ||
	    s->phash == NULL || s->addressing_mode == NULL ||
	    s->skmsg == NULL || s->skmsg_len == 0 ||
	    (s->n_skdm > 0 && s->skdm == NULL))
		return -EINVAL;
	if (strcmp(s->addressing_mode, "lid") != 0 &&
	    strcmp(s->addressing_mode, "pn") != 0)
		return -EINVAL;
	for (i = 0; i < s->n_skdm; i++) {
		if (enc_name(s->skdm[i].type) == NULL ||
		    s->skdm[i].jid == NULL ||
		    (s->skdm[i].ct == NULL && s->skdm[i].ct_len > 0))
			return -EINVAL;
		pkmsg |= s->skdm[i].type == WA_MSG_ENC_PKMSG;
	}
	/* <device-identity> iff some <enc> is a pkmsg (9.4, 10.3). */
	if (pkmsg && (s->device_identity == NULL ||
	    s->device_identity_len == 0))
		return -EINVAL;
	type = s->type != NULL ? s->type : "text";
	hide = s->edit != NULL || strcmp(type, "reaction") == 0;

	n = wa_nb_new(a, "message", 6);
	if (wa_nb_attr_jid(n, "to", s->to) != 0)
		return -EINVAL;
	wa_nb_attr(n, "id", s->id);
	wa_nb_attr(n, "type", type);
	wa_nb_attr(n, "phash", s->phash);
	wa_nb_attr(n, "addressing_mode", s->addressing_mode);
	wa_nb_attr(n, "edit", s->edit);
	nk = 1 + (s->n_skdm > 0) + pkmsg + (s->reporting_token != NULL);
	ch = wa_nb_kids(a, n, nk);
	if (s->n_skdm > 0) {
		to = wa_nb_kids(a, wa_nb_kid(a, &ch[k++], "participants", 0),
		    s->n_skdm);
		for (i = 0; i < s->n_skdm; i++) {
			wa_nb_kid(a, &to[i], "to", 1);
			if (wa_nb_attr_jid(&to[i], "jid", s->skdm[i].jid) != 0)
				return -EINVAL;
			enc = wa_nb_kid(a, wa_nb_kids(a, &to[i], 1), "enc", 2);
			wa_nb_attr(enc, "v", "2");
			wa_nb_attr(enc, "type", enc_name(s->skdm[i].type));
			wa_nb_bytes(enc, s->skdm[i].ct, s->skdm[i].ct_len);
		}
	}
	enc = wa_nb_kid(a, &ch[k++], "enc", 4);
	wa_nb_attr(enc, "v", "2");
	wa_nb_attr(enc, "type", "skmsg");
	wa_nb_attr(enc, "mediatype", s->mediatype);
	if (hide)
		wa_nb_attr(enc, "decrypt-fail", "hide");
	wa_nb_bytes(enc, s->skmsg, s->skmsg_len);
	if (pkmsg)
		wa_nb_bytes(wa_nb_kid(a, &ch[k++], "device-identity", 0),
		    s->device_identity, s->device_identity_len);
	if (s->reporting_token != NULL)
		wa_reporting_node(s->reporting_token, a, &ch[k++]);
	*out = n;
	return 0;
}

int
wa_group_message_skdm(const char *group, const uint8_t *skdm, size_t len,
    struct buf *out)
{
	Wae2e__Message					 m =
	    WAE2E__MESSAGE__INIT;
	Wae2e__Message__SenderKeyDistributionMessage	 d =
	    WAE2E__MESSAGE__SENDER_KEY_DISTRIBUTION_MESSAGE__INIT;
	size_t						 sz;

	if (!is_group_jid(group) || skdm == NULL || len == 0)
		return -EINVAL;
	d.groupid = (char *)(uintptr_t)group;
	d.has_axolotlsenderkeydistributionmessage = 1;
	d.axolotlsenderkeydistributionmessage.data = (uint8_t *)(uintptr_t)skdm;
	d.axolotlsenderkeydistributionmessage.len = len;
	m.senderkeydistributionmessage = &d;
	sz = protobuf_c_message_get_packed_size(&m.base);
	buf_reserve(out, sz);
	out->len += protobuf_c_message_pack(&m.base, out->p + out->len);
	return 0;
}

int
wa_group_message_add_skdm(const uint8_t *msg, size_t msg_len,
    const char *group, const uint8_t *skdm, size_t len, struct buf *out)
{
	size_t	 old = out->len;
	int	 rc;

	if ((msg == NULL && msg_len > 0) || !is_group_jid(group) ||
	    skdm == NULL || len == 0)
		return -EINVAL;
	/* Serialized messages concatenate into their merge (10.5). */
	buf_append(out, msg, msg_len);
	if ((rc = wa_group_message_skdm(group, skdm, len, out)) != 0) {
		out->len = old;
		return rc;
	}
	return 0;
}

/* --- w:g2 iqs (10.1; whatsmeow group.go) --- */

/* <iq id xmlns="w:g2" type to> with one child, which is returned. */
static struct wa_node *
g2_iq(struct arena *a, const char *id, const char *type, const char *to,
    struct wa_node **iq)
{
	struct wa_node	*n = wa_nb_new(a, "iq", 4);

	wa_nb_attr(n, "id", id);
	wa_nb_attr(n, "xmlns", "w:g2");
	wa_nb_attr(n, "type", type);
	/* The caller checked to: a group JID or the bare server. */
	(void)wa_nb_attr_jid(n, "to", to);
	*iq = n;
	return wa_nb_kids(a, n, 1);
}

int
wa_group_info_query(const char *id, const char *group, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*iq, *c;

	if (id == NULL || !is_group_jid(group))
		return -EINVAL;
	c = g2_iq(a, id, "get", group, &iq);
	wa_nb_attr(wa_nb_kid(a, c, "query", 1), "request", "interactive");
	*out = iq;
	return 0;
}

int
wa_group_participating_query(const char *id, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*iq, *c, *p;

	if (id == NULL)
		return -EINVAL;
	c = g2_iq(a, id, "get", JID_SERVER_GROUP, &iq);
	p = wa_nb_kids(a, wa_nb_kid(a, c, "participating", 0), 2);
	wa_nb_kid(a, &p[0], "participants", 0);
	wa_nb_kid(a, &p[1], "description", 0);
	*out = iq;
	return 0;
}

/* Fill kids[0..n) with <participant jid/>. */
static int
participant_list(struct arena *a, struct wa_node *kids,
    const char *const *jids, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (jids[i] == NULL || wa_nb_attr_jid(wa_nb_kid(a, &kids[i],
		    "participant", 1), "jid", jids[i]) != 0)
			return -EINVAL;
	return 0;
}

int
wa_group_create(const char *id, const char *subject, const char *key,
    const char *const *participants, size_t n, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*iq, *c;

	if (id == NULL || subject == NULL || subject[0] == '\0' ||
	    key == NULL || n > WA_GROUP_MAX_PARTICIPANTS ||
	    (n > 0 && participants == NULL))
		return -EINVAL;
	/* WhatsApp Web sends the key without the "3EB0" prefix (whatsmeow
	 * CreateGroup). */
	if (strncmp(key, "3EB0", 4) == 0)
		key += 4;
	if (key[0] == '\0')
		return -EINVAL;
	c = g2_iq(a, id, "set", JID_SERVER_GROUP, &iq);
	wa_nb_kid(a, c, "create", 2);
	wa_nb_attr(c, "subject", subject);
	wa_nb_attr(c, "key", key);
	if (n > 0 && participant_list(a, wa_nb_kids(a, c, n), participants,
	    n) != 0)
		return -EINVAL;
	*out = iq;
	return 0;
}

int
wa_group_set_subject(const char *id, const char *group, const char *subject,
    struct arena *a, struct wa_node **out)
{
	struct wa_node	*iq, *c;

	if (id == NULL || !is_group_jid(group) || subject == NULL ||
	    subject[0] == '\0')
		return -EINVAL;
	c = g2_iq(a, id, "set", group, &iq);
	wa_nb_bytes(wa_nb_kid(a, c, "subject", 0), subject, strlen(subject));
	*out = iq;
	return 0;
}

int
wa_group_set_ephemeral(const char *id, const char *group, uint32_t secs,
    struct arena *a, struct wa_node **out)
{
	struct wa_node	*iq, *c, *e;
	char		 n[16];

	if (id == NULL || !is_group_jid(group))
		return -EINVAL;
	c = g2_iq(a, id, "set", group, &iq);
	if (secs == 0) {
		(void)wa_nb_kid(a, c, "not_ephemeral", 0);
	} else {
		e = wa_nb_kid(a, c, "ephemeral", 1);
		snprintf(n, sizeof(n), "%u", (unsigned)secs);
		wa_nb_attr(e, "expiration", n);
	}
	*out = iq;
	return 0;
}

static const char *
change_tag(enum wa_group_change what)
{
	switch (what) {
	case WA_GROUP_ADD:
		return "add";
	case WA_GROUP_REMOVE:
		return "remove";
	case WA_GROUP_PROMOTE:
		return "promote";
	case WA_GROUP_DEMOTE:
		return "demote";
	}
	return NULL;
}

int
wa_group_participants_change(const char *id, const char *group,
    enum wa_group_change what, const char *const *jids, size_t n,
    struct arena *a, struct wa_node **out)
{
	struct wa_node	*iq, *c;
	const char	*tag = change_tag(what);

	if (id == NULL || !is_group_jid(group) || tag == NULL || n == 0 ||
	    n > WA_GROUP_MAX_PARTICIPANTS || jids == NULL)
		return -EINVAL;
	c = g2_iq(a, id, "set", group, &iq);
	wa_nb_kid(a, c, tag, 0);
	if (participant_list(a, wa_nb_kids(a, c, n), jids, n) != 0)
		return -EINVAL;
	*out = iq;
	return 0;
}

int
wa_group_leave(const char *id, const char *group, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*iq, *c, *g;

	if (id == NULL || !is_group_jid(group))
		return -EINVAL;
	c = g2_iq(a, id, "set", JID_SERVER_GROUP, &iq);
	g = wa_nb_kid(a, wa_nb_kids(a, wa_nb_kid(a, c, "leave", 0), 1),
	    "group", 1);
	if (wa_nb_attr_jid(g, "id", group) != 0)
		return -EINVAL;
	*out = iq;
	return 0;
}

/* --- reading --- */

#define FAIL(msg) do {				\
	if (why != NULL)			\
		*why = (msg);			\
	return WC_EPROTO;			\
} while (0)

/* The text content of n in a, or NULL. */
static const char *
text_of(struct arena *a, const struct wa_node *n)
{
	const uint8_t	*p;
	size_t		 len;

	if (!wa_node_bytes(n, &p, &len))
		return NULL;
	return wa_node_strdup(a, (const char *)p, len);
}

/* Read the <participant> children of n into *out, *n_out. */
static int
parse_participants(const struct wa_node *n, struct arena *a,
    struct wa_group_participant **out, size_t *n_out, const char **why)
{
	struct wa_group_participant	*v = NULL, *p;
	size_t				 i, cnt = 0, k = 0;

	for (i = 0; i < wa_node_nkids(n); i++)
		cnt += wa_str_eqc(wa_node_kid(n, i)->tag, "participant");
	if (cnt > WA_GROUP_MAX_PARTICIPANTS)
		FAIL("too many <participant>");
	if (cnt > 0)
		v = arena_alloc(a, cnt * sizeof(*v));
	for (i = 0; i < wa_node_nkids(n); i++) {
		const struct wa_node	*c = wa_node_kid(n, i);

		if (!wa_str_eqc(c->tag, "participant"))
			continue;
		p = &v[k++];
		memset(p, 0, sizeof(*p));
		if ((p->jid = wa_node_text(a, c, "jid")) == NULL || p->jid[0] == '\0')
			FAIL("<participant> without a jid");
		p->lid = wa_node_text(a, c, "lid");
		p->phone_number = wa_node_text(a, c, "phone_number");
		p->display_name = wa_node_text(a, c, "display_name");
		p->superadmin = wa_node_str_is(c, "type", "superadmin");
		p->admin = p->superadmin || wa_node_str_is(c, "type", "admin");
	}
	*out = v;
	*n_out = cnt;
	return 0;
}

int
wa_group_info_parse(const struct wa_node *g, struct arena *a,
    struct wa_group_info *out, const char **why)
{
	struct wa_group_info	 gi;
	const struct wa_node	*c;
	const char		*id;
	char			*jid;
	size_t			 len;
	int			 rc;

	if (g == NULL || !wa_str_eqc(g->tag, "group")) {
		if (why != NULL)
			*why = "not a <group>";
		return -EINVAL;
	}
	memset(&gi, 0, sizeof(gi));
	if ((id = wa_node_text(a, g, "id")) == NULL || id[0] == '\0')
		FAIL("<group> without an id");
	if (jid_server_of(id) != id) {	/* a JID already */
		gi.jid = id;
	} else {
		len = strlen(id) + sizeof("@" JID_SERVER_GROUP);
		jid = arena_alloc(a, len);
		(void)jid_make(id, JID_SERVER_GROUP, jid, len);	/* fits */
		gi.jid = jid;
	}
	if (wa_node_num(g, "s_t", &gi.subject_t) < 0 ||
	    wa_node_num(g, "creation", &gi.creation) < 0 ||
	    wa_node_num(g, "size", &gi.size) < 0)
		FAIL("<group> with a non-numeric s_t, creation or size");
	gi.subject = wa_node_text(a, g, "subject");
	gi.subject_owner = wa_node_text(a, g, "s_o");
	gi.subject_owner_pn = wa_node_text(a, g, "s_o_pn");
	gi.creator = wa_node_text(a, g, "creator");
	gi.creator_pn = wa_node_text(a, g, "creator_pn");
	gi.addressing_mode = wa_node_text(a, g, "addressing_mode");
	if (gi.addressing_mode == NULL)
		gi.addressing_mode = "pn";
	gi.lid = strcmp(gi.addressing_mode, "lid") == 0;
	if ((c = wa_node_child(g, "description")) != NULL) {
		gi.description_id = wa_node_text(a, c, "id");
		gi.description = text_of(a, wa_node_child(c, "body"));
	}
	gi.announce = wa_node_child(g, "announcement") != NULL;
	gi.locked = wa_node_child(g, "locked") != NULL;
	if ((c = wa_node_child(g, "ephemeral")) != NULL &&
	    wa_node_num(c, "expiration", &gi.ephemeral_s) < 0)
		FAIL("<ephemeral> with a non-numeric expiration");
	if ((rc = parse_participants(g, a, &gi.participants,
	    &gi.n_participants, why)) != 0)
		return rc;
	*out = gi;
	return 0;
}

int
wa_group_iq_parse(const struct wa_node *iq, struct arena *a,
    struct wa_group_info **out, size_t *n_out, const char **why)
{
	const struct wa_node	*g, *gs;
	struct wa_group_info	*v;
	size_t			 i, cnt = 0, k = 0;
	int			 rc;

	if (iq == NULL || !wa_str_eqc(iq->tag, "iq")) {
		if (why != NULL)
			*why = "not an <iq>";
		return -EINVAL;
	}
	if (wa_node_str_is(iq, "type", "error")) {
		const struct wa_node	*e = wa_node_child(iq, "error");

		if (e != NULL && wa_node_str_is(e, "code", "404"))
			return -ENOENT;
		if (e != NULL && wa_node_str_is(e, "code", "403"))
			return -EACCES;
		FAIL("<iq type=\"error\"> for a group query");
	}
	if (!wa_node_str_is(iq, "type", "result"))
		FAIL("<iq> neither a result nor an error");
	if ((g = wa_node_child(iq, "group")) != NULL) {
		v = arena_alloc(a, sizeof(*v));
		if ((rc = wa_group_info_parse(g, a, v, why)) != 0)
			return rc;
		*out = v;
		*n_out = 1;
		return 0;
	}
	if ((gs = wa_node_child(iq, "groups")) == NULL)
		FAIL("group answer without <group> or <groups>");
	for (i = 0; i < wa_node_nkids(gs); i++)
		cnt += wa_str_eqc(wa_node_kid(gs, i)->tag, "group");
	if (cnt > WA_GROUP_MAX_GROUPS)
		FAIL("too many <group>");
	v = arena_alloc(a, (cnt > 0 ? cnt : 1) * sizeof(*v));
	for (i = 0; i < wa_node_nkids(gs); i++) {
		if (!wa_str_eqc(wa_node_kid(gs, i)->tag, "group"))
			continue;
		if ((rc = wa_group_info_parse(wa_node_kid(gs, i), a, &v[k++], why)) !=
		    0)
			return rc;
	}
	*out = v;
	*n_out = cnt;
	return 0;
}

/* --- w:gp2 notifications (11.7) --- */

static const struct {
	const char		*tag;
	enum wa_group_ev_kind	 kind;
} ev_tags[] = {
	{ "create", WA_GROUP_EV_CREATE },
	{ "subject", WA_GROUP_EV_SUBJECT },
	{ "description", WA_GROUP_EV_DESCRIPTION },
	{ "add", WA_GROUP_EV_ADD },
	{ "remove", WA_GROUP_EV_REMOVE },
	{ "promote", WA_GROUP_EV_PROMOTE },
	{ "demote", WA_GROUP_EV_DEMOTE },
	{ "leave", WA_GROUP_EV_LEAVE },
	{ "modify", WA_GROUP_EV_MODIFY },
	{ "announcement", WA_GROUP_EV_ANNOUNCE },
	{ "not_announcement", WA_GROUP_EV_NOT_ANNOUNCE },
	{ "locked", WA_GROUP_EV_LOCKED },
	{ "unlocked", WA_GROUP_EV_UNLOCKED },
	{ "ephemeral", WA_GROUP_EV_EPHEMERAL },
	{ "not_ephemeral", WA_GROUP_EV_NOT_EPHEMERAL },
	{ "delete", WA_GROUP_EV_DELETE },
};

static enum wa_group_ev_kind
ev_kind(struct wa_str tag)
{
	size_t	 i;

	for (i = 0; i < sizeof(ev_tags) / sizeof(ev_tags[0]); i++)
		if (wa_str_eqc(tag, ev_tags[i].tag))
			return ev_tags[i].kind;
	return WA_GROUP_EV_OTHER;
}

/* Fill the kind-specific part of e from the child c. */
static int
parse_event(const struct wa_node *c, struct arena *a,
    struct wa_group_event *e, const char **why)
{
	switch (e->kind) {
	case WA_GROUP_EV_CREATE:
		e->created = arena_alloc(a, sizeof(*e->created));
		if (wa_group_info_parse(wa_node_child(c, "group"), a,
		    e->created, why) != 0)
			FAIL("<create> without a valid <group>");
		break;
	case WA_GROUP_EV_SUBJECT:
		e->subject = wa_node_text(a, c, "subject");
		e->subject_owner = wa_node_text(a, c, "s_o");
		if (wa_node_num(c, "s_t", &e->subject_t) < 0)
			FAIL("<subject> with a non-numeric s_t");
		break;
	case WA_GROUP_EV_DESCRIPTION:
		e->description_id = wa_node_text(a, c, "id");
		if (wa_node_child(c, "delete") == NULL)
			e->description = text_of(a, wa_node_child(c, "body"));
		break;
	case WA_GROUP_EV_ADD:
	case WA_GROUP_EV_REMOVE:
	case WA_GROUP_EV_PROMOTE:
	case WA_GROUP_EV_DEMOTE:
	case WA_GROUP_EV_LEAVE:
	case WA_GROUP_EV_MODIFY:
		e->reason = wa_node_text(a, c, "reason");
		return parse_participants(c, a, &e->participants,
		    &e->n_participants, why);
	case WA_GROUP_EV_EPHEMERAL:
		if (wa_node_num(c, "expiration", &e->expiration_s) < 0)
			FAIL("<ephemeral> with a non-numeric expiration");
		break;
	case WA_GROUP_EV_DELETE:
		e->reason = wa_node_text(a, c, "reason");
		break;
	case WA_GROUP_EV_OTHER:
	case WA_GROUP_EV_ANNOUNCE:
	case WA_GROUP_EV_NOT_ANNOUNCE:
	case WA_GROUP_EV_LOCKED:
	case WA_GROUP_EV_UNLOCKED:
	case WA_GROUP_EV_NOT_EPHEMERAL:
		break;
	}
	return 0;
}

int
wa_group_notification_parse(const struct wa_node *n, struct arena *a,
    struct wa_group_event **out, size_t *n_out, const char **why)
{
	struct wa_group_event	 base, *v = NULL;
	size_t			 i, cnt = wa_node_nkids(n);
	int			 rc;

	if (n == NULL || !wa_str_eqc(n->tag, "notification") ||
	    !wa_node_str_is(n, "type", "w:gp2")) {
		if (why != NULL)
			*why = "not a w:gp2 <notification>";
		return -EINVAL;
	}
	memset(&base, 0, sizeof(base));
	if ((base.group = wa_node_text(a, n, "from")) == NULL || base.group[0] == '\0')
		FAIL("<notification> without a from");
	if ((base.id = wa_node_text(a, n, "id")) == NULL || base.id[0] == '\0')
		FAIL("<notification> without an id");
	if (wa_node_num(n, "t", &base.t) < 0)
		FAIL("<notification> with a non-numeric t");
	base.author = wa_node_text(a, n, "participant");
	base.author_pn = wa_node_text(a, n, "participant_pn");
	base.notify = wa_node_text(a, n, "notify");
	if (cnt > WA_GROUP_MAX_EVENTS)
		FAIL("w:gp2 <notification> with too many children");
	if (cnt > 0)
		v = arena_alloc(a, cnt * sizeof(*v));
	for (i = 0; i < cnt; i++) {
		const struct wa_node	*c = wa_node_kid(n, i);

		v[i] = base;
		v[i].tag = wa_node_strdup(a, c->tag.p, c->tag.len);
		v[i].kind = ev_kind(c->tag);
		if ((rc = parse_event(c, a, &v[i], why)) != 0)
			return rc;
	}
	*out = v;
	*n_out = cnt;
	return 0;
}
