/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/eng-stanza.c -- the dispatch of incoming stanzas
 * (proto/eng-int.h).  The connection's frame callback decodes one stanza
 * and routes it by tag through one table; an <iq> goes on by its type,
 * and an answer by the id of the query it answers; a <notification> is
 * routed by its type, then acked (11.7), and a <call> shown, then acked,
 * both with the acks' one builder (wa_msg_ack).  Each handler only
 * delegates to the file that does the work.  What the engine does not
 * take goes, once online, to history sync (proto/hsync.h) and then to
 * messaging (proto/dm.h): message, receipt, ack, chatstate, presence, the
 * devices notifications, the media_conn answer.
 */
#include "base/compat.h"

#include <stddef.h>
#include <string.h>

#define LOG_TAG "eng"

#include "base/arena.h"
#include "base/err.h"
#include "base/log.h"
#include "proto/bin.h"
#include "proto/dm.h"
#include "proto/eng-int.h"
#include "proto/hsync.h"
#include "proto/msg.h"
#include "proto/node.h"

#define NITEMS(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * One kind of stanza (a tag, or a type attribute) and its handler, which
 * returns true when the stanza was the engine's, false to pass it on.
 */
struct route {
	const char	*name;
	bool		(*fn)(struct wa_eng *, const struct wa_node *);
};

/* Run the handler of name in r[0..n): its answer, false when none. */
static bool
route(const struct route *r, size_t n, struct wa_str name, struct wa_eng *e,
    const struct wa_node *node)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (wa_str_eqc(name, r[i].name))
			return r[i].fn(e, node);
	return false;
}

/* --- <notification> by type (acked after) --- */

/*
 * The ack of a <notification> or a <call> n (11.7): the one builder of
 * acks, wa_msg_ack() (proto/msg.h), as messaging's: class, id, to=from,
 * participant and recipient as on n (the server matches the ack on
 * them, real-server.md rows 22, 24), type copied ([WM] receipt.go
 * sendAck, [BL] buildAckStanza).
 */
static void
ack_stanza(struct wa_eng *e, const struct wa_node *n)
{
	struct arena	 a;
	struct wa_node	*ack;

	arena_init(&a, 0);
	if (wa_msg_ack(n, NULL, NULL, &a, &ack) == 0)
		(void)eng_send(e, ack);
	else
		log_warn("a <%.*s> without an id or from: not acked",
		    (int)n->tag.len, n->tag.p);
	arena_release(&a);
}

static bool
nt_reg_refresh(struct wa_eng *e, const struct wa_node *n)
{
	eng_on_reg_refresh(e, n);	/* 6.2.1 */
	return true;
}

static bool
nt_link_code(struct wa_eng *e, const struct wa_node *n)
{
	const struct wa_node	*c;

	if ((c = wa_node_child(n, "link_code_companion_reg")) == NULL)
		return false;
	eng_on_lc_primary(e, c);	/* 6.7 */
	return true;
}

static bool
nt_encrypt(struct wa_eng *e, const struct wa_node *n)
{
	const struct wa_node	*c;

	if (!e->online || (c = wa_node_child(n, "count")) == NULL)
		return false;
	eng_on_server_count(e, c);	/* 7.4 */
	return true;
}

static bool
nt_account_sync(struct wa_eng *e, const struct wa_node *n)
{
	if (!e->online)
		return false;
	if (e->pr != NULL)	/* a <blocklist> (protocol-features.md 3.9) */
		(void)wa_prof_stanza(e->pr, n);
	eng_on_account_sync(e, n);	/* 11.7 */
	return true;
}

static bool
nt_picture(struct wa_eng *e, const struct wa_node *n)
{
	if (!e->online || e->pr == NULL)
		return false;
	(void)wa_prof_stanza(e->pr, n);	/* protocol-features.md 4.1 */
	return true;
}

static bool
nt_server_sync(struct wa_eng *e, const struct wa_node *n)
{
	if (!e->online || e->as == NULL)
		return false;
	(void)wa_appsync_stanza(e->as, n);	/* protocol-features.md 2.4 */
	return true;
}

static bool
nt_mediaretry(struct wa_eng *e, const struct wa_node *n)
{
	if (!e->online || e->mg == NULL)
		return false;
	(void)wa_mget_stanza(e->mg, n);	/* protocol-features.md 1.8 */
	return true;
}

static const struct route notifications[] = {
	{ "companion_reg_refresh", nt_reg_refresh },
	{ "link_code_companion_reg", nt_link_code },
	{ "encrypt", nt_encrypt },
	{ "account_sync", nt_account_sync },
	{ "server_sync", nt_server_sync },
	{ "mediaretry", nt_mediaretry },
	{ "picture", nt_picture },
};

static bool
on_notification(struct wa_eng *e, const struct wa_node *n)
{
	int	 rc = 0;

	if (!route(notifications, NITEMS(notifications),
	    wa_node_str(n, "type"), e, n) && e->online && e->dm != NULL)
		rc = wa_dm_stanza(e->dm, n);	/* devices, w:gp2 */
	/* acked once handled; not when it could not be stored: the server
	 * sends it again (reliability.md rule 1) */
	if (rc >= 0)
		ack_stanza(e, n);
	return true;
}

/* --- <call> (protocol-features.md 5): shown by messaging, then acked,
 * also when it cannot be read; not when its line could not be stored
 * (sent again). */

static bool
on_call(struct wa_eng *e, const struct wa_node *n)
{
	int	 rc = 0;

	if (e->online && e->dm != NULL)
		rc = wa_dm_stanza(e->dm, n);
	if (rc >= 0)
		ack_stanza(e, n);
	return true;
}

/* --- <iq> by type, an answer by the id of its query --- */

static bool
iq_get(struct wa_eng *e, const struct wa_node *n)
{
	if (!wa_node_str_is(n, "xmlns", "urn:xmpp:ping") &&
	    wa_node_child(n, "ping") == NULL)
		return false;
	/* 1.4: the server's ping */
	eng_send_result(e, wa_node_str(n, "id"));
	return true;
}

static bool
iq_set(struct wa_eng *e, const struct wa_node *n)
{
	const struct wa_node	*c;

	if (e->kind == KIND_REG && (c = wa_node_child(n, "pair-device")) !=
	    NULL && c->content.kind == WA_VAL_LIST)
		eng_on_pair_device(e, n, c);
	else if (e->kind == KIND_REG &&
	    (c = wa_node_child(n, "pair-success")) != NULL)
		eng_on_pair_success(e, n, c);
	return true;
}

static const struct route iq_types[] = {
	{ "get", iq_get },
	{ "set", iq_set },
};

/* The queries the engine waits on: the field of struct wa_eng holding the
 * id ("" when none is out), and what takes the answer. */
static const struct {
	size_t	 id;
	void	(*fn)(struct wa_eng *, const struct wa_node *);
} answers[] = {
	{ offsetof(struct wa_eng, lc_id), eng_on_lc_reply },
	{ offsetof(struct wa_eng, ping_id), eng_on_ping_answer },
	{ offsetof(struct wa_eng, count_id), eng_on_count_answer },
	{ offsetof(struct wa_eng, upload_id), eng_on_upload_reply },
	{ offsetof(struct wa_eng, mc_id), eng_on_mc_answer },
};

static void
on_answer(struct wa_eng *e, const struct wa_node *n)
{
	struct wa_str	 id = wa_node_str(n, "id");
	size_t		 i;

	if (id.len == 0)
		return;
	for (i = 0; i < NITEMS(answers); i++) {
		const char	*want = (const char *)e + answers[i].id;

		if (want[0] != '\0' && wa_str_eqc(id, want)) {
			answers[i].fn(e, n);
			return;
		}
	}
	if (e->hs != NULL && e->online && wa_hsync_stanza(e->hs, n))
		return;		/* media_conn */
	if (e->as != NULL && e->online && wa_appsync_stanza(e->as, n))
		return;		/* sync, media_conn */
	if (e->mg != NULL && e->online && wa_mget_stanza(e->mg, n))
		return;		/* media_conn of a download */
	if (e->pr != NULL && e->online && wa_prof_stanza(e->pr, n))
		return;		/* blocklist, picture, about */
	if (e->dm != NULL && e->online)
		(void)wa_dm_stanza(e->dm, n);
}

static bool
on_iq(struct wa_eng *e, const struct wa_node *n)
{
	if (!route(iq_types, NITEMS(iq_types), wa_node_str(n, "type"), e, n))
		on_answer(e, n);
	return true;
}

/* --- the stanza by tag --- */

static bool
on_success(struct wa_eng *e, const struct wa_node *n)
{
	/* [RS] ignores a success on the registration connection. */
	if (e->kind == KIND_LOGIN && !e->online)
		eng_on_success(e, n);
	return true;
}

static bool
on_failure(struct wa_eng *e, const struct wa_node *n)
{
	eng_on_failure(e, n);
	return true;
}

static bool
on_stream_error(struct wa_eng *e, const struct wa_node *n)
{
	eng_on_stream_error(e, n);
	return true;
}

static bool
on_stream_end(struct wa_eng *e, const struct wa_node *n)
{
	(void)n;
	eng_lost(e, WC_ECLOSED, NEXT_RETRY, "the server ended the stream");
	return true;
}

static bool
on_ib(struct wa_eng *e, const struct wa_node *n)
{
	eng_on_ib(e, n);
	return true;
}

static const struct route stanzas[] = {
	{ "iq", on_iq },
	{ "ib", on_ib },
	{ "success", on_success },
	{ "failure", on_failure },
	{ "stream:error", on_stream_error },
	{ "xmlstreamend", on_stream_end },
	{ "notification", on_notification },
	{ "call", on_call },
};

/* Not the engine's: history sync first, then messaging. */
static void
pass_on(struct wa_eng *e, const struct wa_node *n)
{
	if (e->online && e->hs != NULL && wa_hsync_stanza(e->hs, n))
		return;		/* the ack of a hist_sync receipt */
	if (e->online && e->dm != NULL && wa_dm_stanza(e->dm, n))
		return;		/* message, receipt, ack, chatstate, presence */
	log_debug("ignored <%.*s>", (int)n->tag.len, n->tag.p);
}

void
eng_on_frame(void *arg, const uint8_t *p, size_t len)
{
	struct wa_eng	*e = arg;
	struct arena	 a;
	struct wa_node	*n;
	size_t		 off = 0;
	int		 rc;

	arena_init(&a, 0);
	if ((rc = wa_bin_unpack(p, len, &a, &n, &off)) != 0)
		log_warn("undecodable stanza: %s at byte %zu", wc_strerror(rc),
		    off);
	else {
		/* 11.6: part of the offline backlog */
		if (e->online && wa_node_attr(n, "offline") != NULL)
			eng_offline_seen(e);
		if (!route(stanzas, NITEMS(stanzas), n->tag, e, n))
			pass_on(e, n);
	}
	arena_release(&a);
}
