/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-group.c -- groups in the messaging module (proto/dm.h):
 * sending with one sender key per group (the SKDM pairwise only to the
 * devices that lack it, one skmsg for everyone, the participant hash),
 * receiving SKDMs and skmsgs, group retries, the w:g2 queries and changes
 * and the w:gp2 notifications.  Sources: protocol.md 10.1-10.5, 11.2,
 * 11.3, 11.7; interop.md 6.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "dm"
#include "base/arena.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "proto/dm-int.h"
#include "base/err.h"
#include "proto/group.h"
#include "base/log.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "base/xmalloc.h"

/* What a group iq was for. */
enum giq_what {
	GQ_JOB = 1,		/* metadata for the outbox's group job */
	GQ_INFO,		/* metadata asked by the user or a notification */
	GQ_PARTICIPATING,	/* every group we are in, at login */
	GQ_CREATE,
	GQ_SUBJECT,
	GQ_PARTICIPANTS,
	GQ_LEAVE,
};

void
wa_dm_group_release(struct wa_dm_group *g)
{
	free(g->members);
	free(g->alts);
	memset(g, 0, sizeof(*g));
}

static bool
is_group(const char *jid)
{
	return jid != NULL && strcmp(dm_server_of(jid), "g.us") == 0;
}

static void
emit_group(struct wa_dm *dm, const char *group, bool left)
{
	struct wa_dm_ev	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_GROUP;
	ev.chat = group;
	ev.state = left ? 1 : 0;
	dm_emit(dm, &ev);
}

static void
emit_error(struct wa_dm *dm, const char *group, int err, const char *why)
{
	struct wa_dm_ev	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_ERROR;
	ev.chat = group;
	ev.err = err;
	ev.text = why;
	dm_emit(dm, &ev);
}

/* --- group iqs --- */

static struct group_iq *
giq_new(struct wa_dm *dm, enum giq_what what, const char *group)
{
	size_t	 i;

	for (i = 0; i < DM_GROUP_IQS; i++)
		if (dm->giq[i].iq[0] == '\0') {
			dm->host.iq_id(dm->host.arg, dm->giq[i].iq);
			dm->giq[i].what = what;
			snprintf(dm->giq[i].group, sizeof(dm->giq[i].group),
			    "%s", group != NULL ? group : "");
			return &dm->giq[i];
		}
	return NULL;
}

/* Send the iq built in a; the slot is freed when it cannot go. */
static int
giq_send(struct wa_dm *dm, struct group_iq *q, int rc, struct wa_node *n)
{
	if (rc == 0)
		rc = dm_send(dm, n);
	if (rc != 0)
		q->iq[0] = '\0';
	return rc;
}

static int
ask_info(struct wa_dm *dm, enum giq_what what, const char *group)
{
	struct group_iq	*q;
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	if (!dm->online)
		return -ENOTCONN;
	if ((q = giq_new(dm, what, group)) == NULL)
		return -EBUSY;
	arena_init(&a, 512);
	rc = wa_group_info_query(q->iq, group, &a, &n);
	rc = giq_send(dm, q, rc, n);
	arena_release(&a);
	return rc;
}

void
dm_group_online(struct wa_dm *dm)
{
	struct group_iq	*q;
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	memset(dm->giq, 0, sizeof(dm->giq));
	if ((q = giq_new(dm, GQ_PARTICIPATING, NULL)) == NULL)
		return;
	arena_init(&a, 512);
	rc = wa_group_participating_query(q->iq, &a, &n);
	if ((rc = giq_send(dm, q, rc, n)) != 0)
		log_warn("group list not asked: %s", wc_strerror(rc));
	arena_release(&a);
}

void
dm_group_offline(struct wa_dm *dm)
{
	memset(dm->giq, 0, sizeof(dm->giq));
}

/* Store one group's metadata and tell the UI. */
static void
put_info(struct wa_dm *dm, const struct wa_group_info *g)
{
	int	 rc;

	if ((rc = dm->st->group_put(dm->st->arg, g)) != 0) {
		log_warn("cannot store a group: %s", wc_strerror(rc));
		return;
	}
	emit_group(dm, g->jid, false);
}

static void	job_with_group(struct wa_dm *dm);
static void	rotate(struct wa_dm *dm, const char *group);
static void	who(struct wa_dm *dm, const struct wa_group_participant *p,
		    const char *jid, char *out, size_t len);

/* Our subject change went through: stored, and a line in the chat. */
static void
own_subject(struct wa_dm *dm, const struct group_iq *q)
{
	char	 line[400];

	(void)dm->st->group_subject(dm->st->arg, q->group, q->subject);
	snprintf(line, sizeof(line), "you changed the subject to \"%s\"",
	    q->subject);
	dm_notice(dm, q->group, "", dm->host.now_ms(dm->host.arg), line);
}

/*
 * Our participant change went through (whatsmeow group.go: the answer
 * holds <add|remove|promote|demote><participant jid [error]/>...): each
 * participant without an error is recorded, with a line; a removal
 * replaces our sender key (10.4) so the removed cannot read what follows.
 */
static void
own_participants(struct wa_dm *dm, const struct group_iq *q,
    const struct wa_node *n)
{
	const struct wa_node	*c, *p;
	char			 jid[WA_DM_JID_MAX], pn[WA_DM_JID_MAX];
	char			 name[96], line[300];
	size_t			 i, k, nc, np;
	bool			 removed = false;
	int64_t			 now = dm->host.now_ms(dm->host.arg);

	nc = wa_node_nkids(n);
	for (i = 0; i < nc; i++) {
		enum wa_group_change what;

		c = wa_node_kid(n, i);
		if (wa_str_eqc(c->tag, "add"))
			what = WA_GROUP_ADD;
		else if (wa_str_eqc(c->tag, "remove"))
			what = WA_GROUP_REMOVE;
		else if (wa_str_eqc(c->tag, "promote"))
			what = WA_GROUP_PROMOTE;
		else if (wa_str_eqc(c->tag, "demote"))
			what = WA_GROUP_DEMOTE;
		else
			continue;
		np = wa_node_nkids(c);
		for (k = 0; k < np; k++) {
			p = wa_node_kid(c, k);
			if (!wa_str_eqc(p->tag, "participant") ||
			    !wa_node_jid(p, "jid", jid, sizeof(jid)))
				continue;
			if (wa_node_str(p, "error").p != NULL) {
				/* one member refused: said, the rest done */
				char	 err[8];

				wa_node_str_copy(p, "error", err, sizeof(err));
				if (!wa_node_jid(p, "phone_number", pn,
				    sizeof(pn)))
					pn[0] = '\0';
				who(dm, NULL, pn[0] != '\0' ? pn : jid, name,
				    sizeof(name));
				snprintf(line, sizeof(line), "%s: %s", name,
				    strcmp(err, "409") == 0 ? (what ==
				    WA_GROUP_ADD ? "already a member" :
				    "already so") : strcmp(err, "404") == 0 ?
				    "not on WhatsApp or not a member" :
				    strcmp(err, "403") == 0 ? "not allowed" :
				    strcmp(err, "406") == 0 ? "the group's "
				    "creator stays" : "refused by the server");
				emit_error(dm, q->group, WC_EPROTO, line);
				continue;
			}
			if (!wa_node_jid(p, "phone_number", pn, sizeof(pn)))
				pn[0] = '\0';
			switch (what) {
			case WA_GROUP_ADD:
			case WA_GROUP_PROMOTE:
			case WA_GROUP_DEMOTE:
				(void)dm->st->group_member(dm->st->arg,
				    q->group, jid, pn[0] != '\0' ? pn : NULL,
				    what == WA_GROUP_PROMOTE ? 1 : 0);
				break;
			case WA_GROUP_REMOVE:
				(void)dm->st->group_member(dm->st->arg,
				    q->group, jid, NULL, -1);
				if (pn[0] != '\0')
					(void)dm->st->group_member(dm->st->arg,
					    q->group, pn, NULL, -1);
				removed = true;
				break;
			}
			who(dm, NULL, pn[0] != '\0' ? pn : jid, name,
			    sizeof(name));
			snprintf(line, sizeof(line), what == WA_GROUP_ADD ?
			    "you added %s" : what == WA_GROUP_REMOVE ?
			    "you removed %s" : what == WA_GROUP_PROMOTE ?
			    "you made %s an admin" : "you dismissed %s as "
			    "admin", name);
			dm_notice(dm, q->group, "", now, line);
		}
	}
	if (removed)
		rotate(dm, q->group);
}

int
dm_group_on_iq(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_str		 id = wa_node_str(n, "id");
	struct group_iq		 q;
	struct wa_group_info	*gs = NULL;
	struct arena		 a;
	const char		*why = NULL;
	size_t			 i, ng = 0;
	int			 rc;

	for (i = 0; i < DM_GROUP_IQS; i++)
		if (dm->giq[i].iq[0] != '\0' && wa_str_eqc(id, dm->giq[i].iq))
			break;
	if (i == DM_GROUP_IQS)
		return 0;
	q = dm->giq[i];
	dm->giq[i].iq[0] = '\0';
	arena_init(&a, 4096);
	switch (q.what) {
	case GQ_JOB:
	case GQ_INFO:
	case GQ_PARTICIPATING:
	case GQ_CREATE:
		rc = wa_group_iq_parse(n, &a, &gs, &ng, &why);
		if (rc == -EACCES || rc == -ENOENT) {
			/* not (or no longer) a member, or no such group */
			if (q.group[0] != '\0') {
				(void)dm->st->group_left(dm->st->arg, q.group,
				    true);
				emit_group(dm, q.group, true);
			}
			if (q.what == GQ_JOB && dm->job.phase == P_META)
				dm_job_fail(dm, rc, "you are not a member of "
				    "this group");
			else if (q.what == GQ_CREATE)
				emit_error(dm, NULL, rc, "the group could not "
				    "be created");
			break;
		}
		if (rc != 0) {
			log_warn("group answer: %s", why != NULL ? why :
			    wc_strerror(rc));
			if (q.what == GQ_JOB && dm->job.phase == P_META)
				dm_job_fail(dm, rc, "the server did not "
				    "describe the group");
			else if (q.what == GQ_CREATE)
				emit_error(dm, NULL, rc, "the group could not "
				    "be created");
			break;
		}
		for (i = 0; i < ng; i++)
			put_info(dm, &gs[i]);
		if (q.what == GQ_PARTICIPATING)
			log_info("member of %zu groups", ng);
		if (q.what == GQ_CREATE && ng == 1) {
			char	 line[160];

			snprintf(line, sizeof(line), "you created the group");
			dm_notice(dm, gs[0].jid, "", dm->host.now_ms(
			    dm->host.arg), line);
		}
		if (q.what == GQ_JOB && dm->job.phase == P_META &&
		    strcmp(dm->job.o.chat, q.group) == 0)
			job_with_group(dm);
		break;
	case GQ_SUBJECT:
	case GQ_PARTICIPANTS:
	case GQ_LEAVE:
		if (!wa_node_str_is(n, "type", "result")) {
			char		 line[160];
			int64_t		 code = 0;
			const struct wa_node *er = wa_node_child(n, "error");

			if (er != NULL)
				(void)wa_node_num(er, "code", &code);
			snprintf(line, sizeof(line), "%s: %s", q.what ==
			    GQ_SUBJECT ? "the subject could not be changed" :
			    q.what == GQ_LEAVE ? "the group could not be left" :
			    "the members could not be changed", code == 403 ?
			    "only the group's admins may" : code == 404 ?
			    "no such group" : "the server refused it");
			emit_error(dm, q.group, code == 403 ? -EACCES :
			    code == 404 ? -ENOENT : WC_EPROTO, line);
			break;
		}
		if (q.what == GQ_LEAVE) {
			(void)dm->st->group_left(dm->st->arg, q.group, true);
			dm_notice(dm, q.group, "", dm->host.now_ms(
			    dm->host.arg), "you left");
			emit_group(dm, q.group, true);
			break;
		}
		/* The server tells the other members; our own change is
		 * ours to record (the acting device gets no w:gp2). */
		if (q.what == GQ_SUBJECT)
			own_subject(dm, &q);
		else
			own_participants(dm, &q, n);
		if ((rc = ask_info(dm, GQ_INFO, q.group)) != 0)
			log_warn("group refresh: %s", wc_strerror(rc));
		break;
	}
	arena_release(&a);
	return 1;
}

/* --- commands --- */

int
wa_dm_group_create(struct wa_dm *dm, const char *subject,
    const char *const *members, size_t n)
{
	struct group_iq	*q;
	struct arena	 a;
	struct wa_node	*node;
	uint8_t		 r[8];
	char		 key[24];
	int		 rc;

	if (subject == NULL || subject[0] == '\0')
		return -EINVAL;
	if (!dm->online)
		return -ENOTCONN;
	if ((rc = dm->host.rng(dm->host.arg, r, sizeof(r))) != 0)
		return rc;
	snprintf(key, sizeof(key), "%02X%02X%02X%02X%02X%02X%02X%02X", r[0],
	    r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
	if ((q = giq_new(dm, GQ_CREATE, NULL)) == NULL)
		return -EBUSY;
	arena_init(&a, 1024);
	rc = wa_group_create(q->iq, subject, key, members, n, &a, &node);
	rc = giq_send(dm, q, rc, node);
	arena_release(&a);
	return rc;
}

int
wa_dm_group_subject(struct wa_dm *dm, const char *group, const char *subject)
{
	struct group_iq	*q;
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	if (!is_group(group) || subject == NULL || subject[0] == '\0')
		return -EINVAL;
	if (!dm->online)
		return -ENOTCONN;
	if ((q = giq_new(dm, GQ_SUBJECT, group)) == NULL)
		return -EBUSY;
	snprintf(q->subject, sizeof(q->subject), "%s", subject);
	arena_init(&a, 512);
	rc = wa_group_set_subject(q->iq, group, subject, &a, &n);
	rc = giq_send(dm, q, rc, n);
	arena_release(&a);
	return rc;
}

int
wa_dm_group_participants(struct wa_dm *dm, const char *group,
    enum wa_group_change what, const char *const *jids, size_t n)
{
	struct group_iq	*q;
	struct arena	 a;
	struct wa_node	*node;
	int		 rc;

	if (!is_group(group) || n == 0)
		return -EINVAL;
	if (!dm->online)
		return -ENOTCONN;
	if ((q = giq_new(dm, GQ_PARTICIPANTS, group)) == NULL)
		return -EBUSY;
	arena_init(&a, 1024);
	rc = wa_group_participants_change(q->iq, group, what, jids, n, &a,
	    &node);
	rc = giq_send(dm, q, rc, node);
	arena_release(&a);
	return rc;
}

int
wa_dm_group_leave(struct wa_dm *dm, const char *group)
{
	struct group_iq	*q;
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	if (!is_group(group))
		return -EINVAL;
	if (!dm->online)
		return -ENOTCONN;
	if ((q = giq_new(dm, GQ_LEAVE, group)) == NULL)
		return -EBUSY;
	arena_init(&a, 512);
	rc = wa_group_leave(q->iq, group, &a, &n);
	rc = giq_send(dm, q, rc, n);
	arena_release(&a);
	return rc;
}

int
wa_dm_group_info(struct wa_dm *dm, const char *group)
{
	if (!is_group(group))
		return -EINVAL;
	return ask_info(dm, GQ_INFO, group);
}

/* --- sending --- */

size_t
dm_group_mentions(struct wa_dm *dm, const char *group, const char *text,
    char ***out)
{
	struct wa_dm_group	 g;
	struct buf		 b = BUF_INIT;
	const char		*p = text;
	size_t			 i, n = 0, off[WA_MSG_MAX_IDS];
	char			**v;

	*out = NULL;
	memset(&g, 0, sizeof(g));
	if (strchr(text, '@') == NULL ||
	    dm->st->group_get(dm->st->arg, group, &g) != 1)
		return 0;
	while ((p = strchr(p, '@')) != NULL && n < WA_MSG_MAX_IDS) {
		size_t	 k = strspn(p + 1, "0123456789");

		p++;
		if (k < 5)
			continue;
		for (i = 0; i < g.n; i++) {
			const char *j = NULL;

			if (strncmp(g.members[i], p, k) == 0 &&
			    g.members[i][k] == '@')
				j = g.members[i];
			else if (strncmp(g.alts[i], p, k) == 0 &&
			    g.alts[i][k] == '@')
				j = g.alts[i];
			if (j != NULL) {
				off[n++] = b.len;
				buf_append(&b, j, strlen(j) + 1);
				break;
			}
		}
		p += k;
	}
	wa_dm_group_release(&g);
	if (n == 0) {
		buf_release(&b);
		return 0;
	}
	/* the pointers, then the strings, in one block */
	v = xmalloc(n * sizeof(*v) + b.len);
	memcpy((char *)(v + n), b.p, b.len);
	for (i = 0; i < n; i++)
		v[i] = (char *)(v + n) + off[i];
	buf_release(&b);
	*out = v;
	return n;
}

/* Our own user JID in the group's namespace. */
static const char *
own_user(const struct wa_dm *dm, bool lid)
{
	return lid && dm->own_lid[0] != '\0' ? dm->own_lid : dm->own_pn;
}

static void
job_with_group(struct wa_dm *dm)
{
	struct job		*j = &dm->job;
	struct wa_dm_group	 g;
	const char		*own;
	size_t			 i;
	bool			 have_own = false;
	int			 rc;

	memset(&g, 0, sizeof(g));
	rc = dm->st->group_get(dm->st->arg, j->o.chat, &g);
	if (rc < 0) {
		dm_job_fail(dm, rc, "cannot read the group");
		return;
	}
	if (rc == 0) {
		/* not known yet: ask the server, then come back */
		j->phase = P_META;
		if ((rc = ask_info(dm, GQ_JOB, j->o.chat)) != 0)
			log_warn("group query not sent: %s", wc_strerror(rc));
		return;
	}
	if (g.left) {
		wa_dm_group_release(&g);
		dm_job_fail(dm, -EACCES, "you are no longer a member of this "
		    "group");
		return;
	}
	j->lid = g.lid;
	own = own_user(dm, g.lid);
	if (g.lid && dm->own_lid[0] == '\0') {
		wa_dm_group_release(&g);
		dm_job_fail(dm, WC_EPROTO, "our LID is unknown");
		return;
	}
	snprintf(j->own_dev, sizeof(j->own_dev), "%.*s:%u@%s",
	    (int)strcspn(own, "@"), own, dm->own_dev, dm_server_of(own));
	j->users = xcalloc(g.n + 1, sizeof(*j->users));
	j->asked = xcalloc(g.n + 1, sizeof(*j->asked));
	j->nusers = 0;
	for (i = 0; i < g.n; i++) {
		if (dm_same_user(g.members[i], own))
			have_own = true;
		snprintf(j->users[j->nusers++], WA_DM_JID_MAX, "%s",
		    g.members[i]);
	}
	if (!have_own)
		snprintf(j->users[j->nusers++], WA_DM_JID_MAX, "%s", own);
	wa_dm_group_release(&g);
	dm_job_devices(dm);
}

void
dm_group_job_start(struct wa_dm *dm)
{
	job_with_group(dm);
}

int
dm_group_job_need(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	size_t		 i;
	int		 rc;

	for (i = 0; i < j->ndevs; i++) {
		rc = dm->st->skr_has(dm->st->arg, j->o.chat, j->devs[i]);
		if (rc < 0)
			return rc;
		j->need[i] = rc == 0;
	}
	return 0;
}

void
dm_group_job_encrypt(struct wa_dm *dm)
{
	struct job		*j = &dm->job;
	struct wa_signal_addr	 own, ad;
	struct wa_msg_enc_out	*enc = NULL;
	struct buf		*ct = NULL;
	struct buf		 skdm = BUF_INIT, skmsg_pl = BUF_INIT;
	struct buf		 plain = BUF_INIT, sk = BUF_INIT;
	const char		**devs = NULL;
	struct wa_group_send	 s;
	char			 phash[WA_GROUP_PHASH_LEN + 1];
	struct arena		 a;
	struct wa_node		*n;
	size_t			 i, ne = 0, nd = 0, nneed = 0;
	bool			 pk = false;
	int			 rc;

	if ((rc = dm_addr_of(j->own_dev, &own)) != 0) {
		dm_job_fail(dm, rc, "our device address is malformed");
		return;
	}
	for (i = 0; i < j->ndevs; i++)
		nneed += j->need[i];
	enc = xcalloc(nneed + 1, sizeof(*enc));
	ct = xcalloc(nneed + 1, sizeof(*ct));
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0) {
		free(enc);
		free(ct);
		dm_job_fail(dm, rc, "cannot open a transaction");
		return;
	}
	/* Our sender key (made when we have none) and its SKDM (10.2). */
	rc = wa_signal_group_skdm(dm->sig, j->o.chat, &own, &sk);
	if (rc == 0 && nneed > 0)
		rc = wa_group_message_skdm(j->o.chat, sk.p, sk.len, &skdm);
	for (i = 0; rc == 0 && i < j->ndevs; i++) {
		enum wa_signal_type	 st;

		if (!j->need[i] || dm_addr_of(j->devs[i], &ad) != 0 ||
		    wa_signal_has_session(dm->sig, &ad) != 1)
			continue;	/* no bundle: skipped (logged) */
		plain.len = 0;
		dm_pad(dm, skdm.p, skdm.len, &plain);
		rc = wa_signal_encrypt(dm->sig, &ad, plain.p, plain.len, &st,
		    &ct[ne]);
		if (rc != 0)
			break;
		enc[ne].jid = j->devs[i];
		enc[ne].type = st == WA_SIGNAL_PKMSG ? WA_MSG_ENC_PKMSG :
		    WA_MSG_ENC_MSG;
		enc[ne].ct = ct[ne].p;
		enc[ne].ct_len = ct[ne].len;
		pk |= st == WA_SIGNAL_PKMSG;
		j->got[i] = true;
		ne++;
	}
	if (rc == 0) {
		plain.len = 0;
		dm_pad(dm, j->o.payload, j->o.payload_len, &plain);
		rc = wa_signal_group_encrypt(dm->sig, j->o.chat, &own, plain.p,
		    plain.len, &skmsg_pl);
	}
	/* The members it goes to, for its ticks: the devices come grouped
	 * by user (job_fanout()). */
	if (rc == 0 && dm->st->group_sent != NULL) {
		unsigned	 nr = 0;

		for (i = 0; i < j->ndevs; i++)
			if (!j->own[i] && (i == 0 || j->own[i - 1] ||
			    !dm_same_user(j->devs[i], j->devs[i - 1])))
				nr++;
		rc = dm->st->group_sent(dm->st->arg, j->o.chat, j->o.id, nr);
	}
	/* Persist before send (reliability.md rule 1). */
	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else
		(void)dm->st->tx_rollback(dm->st->arg);
	if (rc == 0) {
		devs = xcalloc(j->ndevs + 1, sizeof(*devs));
		for (i = 0; i < j->ndevs; i++)
			devs[nd++] = j->devs[i];
		devs[nd++] = j->own_dev;
		rc = wa_group_phash(devs, nd, phash);
	}
	if (rc != 0) {
		dm_job_fail(dm, rc, "cannot encrypt for the group");
		goto out;
	}
	memset(&s, 0, sizeof(s));
	s.id = j->o.id;
	s.to = j->o.chat;
	s.type = j->o.type[0] != '\0' ? j->o.type : "text";
	s.phash = phash;
	s.addressing_mode = j->lid ? "lid" : "pn";
	s.edit = j->o.edit[0] != '\0' ? j->o.edit : NULL;
	s.skdm = enc;
	s.n_skdm = ne;
	s.skmsg = skmsg_pl.p;
	s.skmsg_len = skmsg_pl.len;
	if (pk) {
		s.device_identity = dm->adv;
		s.device_identity_len = dm->adv_len;
	}
	arena_init(&a, 4096 + 512 * ne);
	rc = wa_group_stanza(&s, &a, &n);
	if (rc == 0) {
		j->phase = P_ACK;
		if ((rc = dm_send(dm, n)) != 0)
			log_warn("message %s: %s; resent on the next "
			    "connection", j->o.id, wc_strerror(rc));
		else
			log_info("group message %s sent (%zu devices, %zu "
			    "SKDM copies)", j->o.id, j->ndevs, ne);
	}
	arena_release(&a);
	if (rc != 0 && j->phase != P_ACK)
		dm_job_fail(dm, rc, "cannot build the stanza");
out:
	for (i = 0; i < nneed + 1; i++)
		buf_release(&ct[i]);
	free(ct);
	free(enc);
	free(devs);
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&plain);
	buf_release(&skdm);
	buf_release(&sk);
	buf_release(&skmsg_pl);
}

void
dm_group_job_acked(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	size_t		 i;
	int		 rc;

	for (i = 0; i < j->ndevs; i++)
		if (j->got[i] && (rc = dm->st->skr_put(dm->st->arg, j->o.chat,
		    j->devs[i])) != 0)
			log_warn("cannot record a sender-key holder: %s",
			    wc_strerror(rc));
}

/* Drop our sender key of group: the next send makes and distributes a
 * new one (10.4: someone who had it is gone). */
static void
rotate(struct wa_dm *dm, const char *group)
{
	struct wa_dm_group	 g;
	struct wa_signal_addr	 own;
	char			 dev[WA_DM_JID_MAX];
	const char		*u;
	int			 rc;

	memset(&g, 0, sizeof(g));
	if (dm->st->group_get(dm->st->arg, group, &g) != 1)
		return;
	u = own_user(dm, g.lid);
	wa_dm_group_release(&g);
	snprintf(dev, sizeof(dev), "%.*s:%u@%s", (int)strcspn(u, "@"), u,
	    dm->own_dev, dm_server_of(u));
	if (dm_addr_of(dev, &own) == 0 &&
	    (rc = wa_signal_group_forget(dm->sig, group, &own)) < 0)
		log_warn("cannot drop our sender key: %s", wc_strerror(rc));
	if ((rc = dm->st->skr_forget(dm->st->arg, group, NULL)) < 0)
		log_warn("cannot forget sender-key holders: %s",
		    wc_strerror(rc));
}

/* --- receiving --- */

/* Is user (any form) a member of the known group?  1 yes, 0 no, -1 the
 * group is unknown. */
static int
is_member(struct wa_dm *dm, const char *group, const char *user)
{
	struct wa_dm_group	 g;
	size_t			 i;
	int			 rc;

	memset(&g, 0, sizeof(g));
	if (dm->st->group_get(dm->st->arg, group, &g) != 1)
		return -1;
	rc = 0;
	for (i = 0; i < g.n && rc == 0; i++)
		if (dm_same_user(g.members[i], user) ||
		    (g.alts[i][0] != '\0' && dm_same_user(g.alts[i], user)))
			rc = 1;
	wa_dm_group_release(&g);
	return rc;
}

/*
 * One <enc> of a group message, in one transaction: a pairwise copy (its
 * SKDM processed, any content applied) or the skmsg.  Returns 0, 1 when
 * it decrypted but holds nothing readable, or an error (nothing written).
 */
static int
take_group_enc(struct wa_dm *dm, const struct wa_msg_in *m,
    const struct wa_msg_enc_in *e, const char *sender, bool from_me,
    bool *shown)
{
	struct wa_signal_addr	 ad;
	struct wa_msg_content	 c;
	struct buf		 plain = BUF_INIT;
	size_t			 len;
	bool			 changed = false, unreadable = false;
	int			 rc, crc;

	if ((rc = dm_addr_of(m->participant, &ad)) != 0)
		return rc;
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		return rc;
	if (e->type == WA_MSG_ENC_SKMSG)
		rc = wa_signal_group_decrypt(dm->sig, m->from, &ad, e->ct,
		    e->ct_len, &plain);
	else
		rc = wa_signal_decrypt(dm->sig, &ad, e->type ==
		    WA_MSG_ENC_PKMSG ? WA_SIGNAL_PKMSG : WA_SIGNAL_MSG, e->ct,
		    e->ct_len, &plain, &changed);
	if (rc == 0) {
		crc = wa_msg_unpad(plain.p, plain.len, &len);
		if (crc == 0 && (crc = wa_msg_parse(plain.p, len, &c)) == 0) {
			if (c.skdm_len > 0 && e->type != WA_MSG_ENC_SKMSG) {
				if (!from_me && is_member(dm, m->from,
				    sender) == 0) {
					log_warn("message %s: an SKDM from "
					    "outside the group, refused",
					    m->id);
				} else if ((crc = wa_signal_group_process_skdm(
				    dm->sig, m->from, &ad, c.skdm,
				    c.skdm_len)) != 0)
					log_warn("message %s: SKDM refused "
					    "(%s)", m->id, wc_strerror(crc));
				crc = 0;
			}
			if (c.kind != WA_MSG_SKDM)
				rc = dm_apply(dm, m, m->from, sender, from_me,
				    &c, shown);
			wa_msg_content_release(&c);
		}
		if (crc != 0) {
			log_warn("message %s: unreadable content (%s)", m->id,
			    wc_strerror(crc));
			unreadable = true;
		}
	}
	rc = dm_enc_end(dm, rc, &plain, changed, from_me, m->from, sender);
	return rc == 0 && unreadable ? 1 : rc;
}

void
dm_group_on_message(struct wa_dm *dm, const struct wa_node *n,
    struct wa_msg_in *m)
{
	struct wa_msg_receipt_out r;
	struct arena		 a;
	struct wa_node		*rn;
	const char		*ids[1];
	char			 sender[WA_DM_JID_MAX], lid[WA_DM_JID_MAX];
	bool			 from_me, shown = false, failed = false;
	bool			 bad_pb = false;
	size_t			 i;
	int			 pass, rc;

	if (m->participant == NULL || !dm_user_of(m->participant, sender,
	    sizeof(sender))) {
		log_warn("group message %s without a sender: refused", m->id);
		dm_send_ack(dm, n, "487");
		return;
	}
	from_me = dm_is_own(dm, m->participant);
	/* Name people by PN when the stanza gives it (5.3). */
	if (m->participant_pn != NULL && dm_user_of(m->participant_pn, sender,
	    sizeof(sender)) && dm_user_of(m->participant, lid, sizeof(lid)) &&
	    strcmp(dm_server_of(lid), "lid") == 0)
		(void)dm->st->lid_put(dm->st->arg, sender, lid);
	if (!from_me && m->notify != NULL)
		(void)dm->st->push_name(dm->st->arg, sender, m->notify);
	if (from_me)
		sender[0] = '\0';
	/* Pairwise copies (the SKDM) first, then the skmsg (11.3). */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < m->n_encs; i++) {
			const struct wa_msg_enc_in *e = &m->encs[i];
			bool	 sk = e->type == WA_MSG_ENC_SKMSG;

			if (e->v != 2 || (pass == 0) == sk ||
			    (e->type != WA_MSG_ENC_MSG && e->type !=
			    WA_MSG_ENC_PKMSG && !sk))
				continue;
			rc = take_group_enc(dm, m, e, sender, from_me, &shown);
			if (rc == WC_EDUPMSG) {
				log_info("message %s: a duplicate, ignored",
				    m->id);
				continue;
			}
			if (rc == 1) {
				bad_pb = true;
				continue;
			}
			if (rc != 0) {
				log_warn("group message %s: cannot decrypt "
				    "(%s)", m->id, wc_strerror(rc));
				failed = true;
			}
		}
	arena_init(&a, 512);
	if (failed)
		dm_send_retry(dm, m);
	else {
		memset(&r, 0, sizeof(r));
		r.to = m->from;
		r.participant = m->participant;
		ids[0] = m->id;
		r.ids = ids;
		r.n_ids = 1;
		r.type = from_me ? "sender" : (!dm->presence_sent ?
		    "inactive" : NULL);
		if (wa_msg_receipt(&r, &a, &rn) == 0)
			(void)dm_send(dm, rn);
	}
	arena_release(&a);
	dm_send_ack(dm, n, bad_pb ? "491" : NULL);
}

/* A group member's device could not read our message: send it the
 * content and our SKDM pairwise (10.5). */
void
dm_group_on_retry(struct wa_dm *dm, const struct wa_msg_receipt_in *r)
{
	struct wa_signal_addr	 ad;

	(void)dm->st->skr_forget(dm->st->arg, r->from, r->participant);
	if (dm_addr_of(r->participant, &ad) != 0)
		return;
	/* no session with that device, or it asked more than once (its
	 * session may be gone): a fresh bundle first (9.6) */
	if (wa_signal_has_session(dm->sig, &ad) != 1 || r->retry_count >= 2) {
		if (dm_retry_fetch(dm, r->participant, r->from, r->id,
		    r->retry_count, r->retry_t, true) != 0)
			log_warn("group retry of %s: no bundle asked", r->id);
		return;
	}
	dm_group_retry_answer(dm, r->participant, r->from, r->id,
	    r->retry_count);
}

void
dm_group_retry_answer(struct wa_dm *dm, const char *device,
    const char *group, const char *id, unsigned count)
{
	struct wa_dm_out	 o;
	struct wa_dm_group	 g;
	struct wa_signal_addr	 own, ad;
	struct buf		 sk = BUF_INIT, msg = BUF_INIT, plain = BUF_INIT;
	struct buf		 ct = BUF_INIT;
	enum wa_signal_type	 st;
	struct arena		 a;
	struct wa_node		*n;
	char			 dev[WA_DM_JID_MAX];
	const char		*u;
	int			 rc;

	memset(&o, 0, sizeof(o));
	memset(&g, 0, sizeof(g));
	if ((rc = dm->st->out_get(dm->st->arg, group, id, &o)) <= 0) {
		log_warn("group retry for message %s we do not have", id);
		return;
	}
	if (dm->st->group_get(dm->st->arg, group, &g) != 1) {
		wa_dm_out_release(&o);
		return;
	}
	u = own_user(dm, g.lid);
	snprintf(dev, sizeof(dev), "%.*s:%u@%s", (int)strcspn(u, "@"), u,
	    dm->own_dev, dm_server_of(u));
	wa_dm_group_release(&g);
	if ((rc = dm_addr_of(dev, &own)) != 0 ||
	    (rc = dm_addr_of(device, &ad)) != 0)
		goto out;
	if (wa_signal_has_session(dm->sig, &ad) != 1) {
		log_warn("group retry of %s: no session with that device",
		    id);
		goto out;
	}
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		goto out;
	rc = wa_signal_group_skdm(dm->sig, group, &own, &sk);
	if (rc == 0)
		rc = wa_group_message_add_skdm(o.payload, o.payload_len,
		    group, sk.p, sk.len, &msg);
	if (rc == 0) {
		dm_pad(dm, msg.p, msg.len, &plain);
		rc = wa_signal_encrypt(dm->sig, &ad, plain.p, plain.len, &st,
		    &ct);
	}
	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else
		(void)dm->st->tx_rollback(dm->st->arg);
	if (rc != 0)
		goto out;
	arena_init(&a, 1024);
	n = wa_nb_new(&a, "message", 6);
	wa_nb_attr(n, "id", id);
	if (wa_nb_attr_jid(n, "to", group) != 0 ||
	    wa_nb_attr_jid(n, "participant", device) != 0) {
		arena_release(&a);
		rc = -EINVAL;
		goto out;
	}
	wa_nb_attr(n, "type", o.type[0] != '\0' ? o.type : "text");
	if (o.edit[0] != '\0')
		wa_nb_attr(n, "edit", o.edit);
	dm_enc_kids(dm, &a, n, st == WA_SIGNAL_PKMSG, count, &ct);
	rc = dm_send(dm, n);
	arena_release(&a);
	if (rc == 0)
		log_info("group message %s re-sent to a device that asked",
		    id);
out:
	if (rc != 0)
		log_warn("group retry of %s: %s", id, wc_strerror(rc));
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&plain);
	buf_release(&msg);
	buf_release(&sk);
	buf_release(&ct);
	wa_dm_out_release(&o);
}

/* --- notifications (11.7) --- */

/* "Alice", "+4915…", "you" for a participant of an event line. */
static void
who(struct wa_dm *dm, const struct wa_group_participant *p, const char *jid,
    char *out, size_t len)
{
	const char	*j = p != NULL ? p->jid : jid;

	if (j == NULL || j[0] == '\0') {
		snprintf(out, len, "someone");
		return;
	}
	if (dm_is_own(dm, j) || (p != NULL && p->phone_number != NULL &&
	    dm_is_own(dm, p->phone_number))) {
		snprintf(out, len, "you");
		return;
	}
	if (p != NULL && p->phone_number != NULL &&
	    strcmp(dm_server_of(j), "lid") == 0)
		j = p->phone_number;
	dm_name_of(dm, j, out, len);
}

/* The names of an event's participants, joined with ", ". */
static void
names(struct wa_dm *dm, const struct wa_group_event *e, char *out, size_t len)
{
	char	 one[96];
	size_t	 i, k = 0;

	out[0] = '\0';
	for (i = 0; i < e->n_participants && k + 1 < len; i++) {
		who(dm, &e->participants[i], NULL, one, sizeof(one));
		k += (size_t)snprintf(out + k, len - k, "%s%s", i > 0 ? ", " :
		    "", one);
		if (k >= len)
			k = len - 1;
	}
}

static bool
touches_us(struct wa_dm *dm, const struct wa_group_event *e)
{
	size_t	 i;

	for (i = 0; i < e->n_participants; i++)
		if (dm_is_own(dm, e->participants[i].jid) ||
		    (e->participants[i].phone_number != NULL &&
		    dm_is_own(dm, e->participants[i].phone_number)))
			return true;
	return false;
}

void
dm_group_on_notification(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_group_event	*ev = NULL;
	struct arena		 a;
	const char		*why = NULL;
	char			 actor[96], them[512], line[800];
	size_t			 i, k, ne = 0;
	bool			 left = false, refresh = false;
	int			 rc;

	arena_init(&a, 2048);
	if ((rc = wa_group_notification_parse(n, &a, &ev, &ne, &why)) != 0) {
		log_warn("a malformed group notification: %s", why != NULL ?
		    why : wc_strerror(rc));
		arena_release(&a);
		return;
	}
	for (i = 0; i < ne; i++) {
		const struct wa_group_event *e = &ev[i];
		int64_t	 ts = e->t > 0 ? e->t * 1000 :
			    dm->host.now_ms(dm->host.arg);
		const char *g = e->group;

		who(dm, NULL, e->author_pn != NULL ? e->author_pn : e->author,
		    actor, sizeof(actor));
		if (e->author == NULL)
			snprintf(actor, sizeof(actor), "someone");
		names(dm, e, them, sizeof(them));
		line[0] = '\0';
		switch (e->kind) {
		case WA_GROUP_EV_CREATE:
			if (e->created != NULL)
				put_info(dm, e->created);
			snprintf(line, sizeof(line), "%s created the group",
			    actor);
			break;
		case WA_GROUP_EV_SUBJECT:
			if (e->subject == NULL)
				break;
			(void)dm->st->group_subject(dm->st->arg, g,
			    e->subject);
			snprintf(line, sizeof(line), "%s changed the subject "
			    "to \"%s\"", actor, e->subject);
			break;
		case WA_GROUP_EV_DESCRIPTION:
			refresh = true;
			snprintf(line, sizeof(line), "%s changed the group "
			    "description", actor);
			break;
		case WA_GROUP_EV_ADD:
			for (k = 0; k < e->n_participants; k++)
				(void)dm->st->group_member(dm->st->arg, g,
				    e->participants[k].jid,
				    e->participants[k].phone_number != NULL ?
				    e->participants[k].phone_number :
				    e->participants[k].lid, 0);
			if (touches_us(dm, e)) {
				(void)dm->st->group_left(dm->st->arg, g,
				    false);
				refresh = true;
			}
			snprintf(line, sizeof(line), "%s added %s", actor,
			    them);
			break;
		case WA_GROUP_EV_REMOVE:
		case WA_GROUP_EV_LEAVE:
			for (k = 0; k < e->n_participants; k++) {
				(void)dm->st->group_member(dm->st->arg, g,
				    e->participants[k].jid, NULL, -1);
				if (e->participants[k].phone_number != NULL)
					(void)dm->st->group_member(
					    dm->st->arg, g, e->participants[k].
					    phone_number, NULL, -1);
			}
			/* whoever is gone must not read what follows */
			rotate(dm, g);
			if (touches_us(dm, e)) {
				(void)dm->st->group_left(dm->st->arg, g, true);
				left = true;
			}
			/* a member who removes only themselves left (as
			 * Baileys reads it) */
			if (e->kind == WA_GROUP_EV_LEAVE ||
			    (e->n_participants == 1 && strcmp(actor, them) == 0))
				snprintf(line, sizeof(line), "%s left", them);
			else
				snprintf(line, sizeof(line), "%s removed %s",
				    actor, them);
			break;
		case WA_GROUP_EV_PROMOTE:
		case WA_GROUP_EV_DEMOTE:
			for (k = 0; k < e->n_participants; k++)
				(void)dm->st->group_member(dm->st->arg, g,
				    e->participants[k].jid, NULL,
				    e->kind == WA_GROUP_EV_PROMOTE ? 1 : 0);
			snprintf(line, sizeof(line), e->kind ==
			    WA_GROUP_EV_PROMOTE ? "%s made %s an admin" :
			    "%s dismissed %s as admin", actor, them);
			break;
		case WA_GROUP_EV_MODIFY:
			rotate(dm, g);
			break;
		case WA_GROUP_EV_DELETE:
			(void)dm->st->group_left(dm->st->arg, g, true);
			left = true;
			snprintf(line, sizeof(line), "the group was deleted");
			break;
		case WA_GROUP_EV_OTHER:
		case WA_GROUP_EV_ANNOUNCE:
		case WA_GROUP_EV_NOT_ANNOUNCE:
		case WA_GROUP_EV_LOCKED:
		case WA_GROUP_EV_UNLOCKED:
		case WA_GROUP_EV_EPHEMERAL:
		case WA_GROUP_EV_NOT_EPHEMERAL:
			break;
		}
		if (line[0] != '\0')
			dm_notice(dm, g, "", ts, line);
	}
	if (ne > 0) {
		if (refresh && !left && (rc = ask_info(dm, GQ_INFO,
		    ev[0].group)) != 0)
			log_warn("group refresh: %s", wc_strerror(rc));
		emit_group(dm, ev[0].group, left);
	}
	arena_release(&a);
}
