/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-admin.c -- groups as the message engine administers them
 * (proto/dm.h): the w:g2 queries and changes (metadata, the groups we
 * are in, create, subject, participants, leave) and their answers, the
 * w:gp2 notifications, the event lines both make, and the sender-key
 * rotation when someone leaves.  The outbox's P_META query is answered
 * through dm_job_meta().  Sources: protocol.md 10.1, 10.4, 11.7;
 * whatsmeow group.go.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "dm"
#include "base/arena.h"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/notice.h"
#include "base/xmalloc.h"
#include "proto/dm-int.h"
#include "proto/group.h"
#include "proto/node.h"

/* A group's JID "<id>@g.us", not the bare server (which jid_is_group()
 * also accepts). */
static bool
is_group(const char *jid)
{
	char	 user[WA_DM_JID_MAX];

	return jid != NULL && jid_is_group(jid) &&
	    jid_user_of(jid, user, sizeof(user));
}

/* --- group iqs --- */

static struct group_iq *
giq_new(struct wa_dm *dm, enum dm_gq what, const char *group)
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

int
dm_group_ask(struct wa_dm *dm, enum dm_gq what, const char *group)
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
		/* a full disk is said (offline until there is room; the
		 * next connection asks again) */
		log_warn("cannot store a group: %s", wc_strerror(rc));
		(void)dm_store_failed(dm, rc);
		return;
	}
	dm_emit_group(dm, g->jid, false);
}

/* Drop our sender key of group: the next send makes and distributes a
 * new one (10.4: someone who had it is gone).  Returns 0, or the first
 * store error (logged). */
static int
rotate(struct wa_dm *dm, const char *group)
{
	struct wa_dm_group	 g;
	struct wa_signal_addr	 own;
	char			 dev[WA_DM_JID_MAX];
	int			 rc, first = 0;

	memset(&g, 0, sizeof(g));
	if (dm->st->group_get(dm->st->arg, group, &g) != 1)
		return 0;
	dm_own_device(dm, g.lid, dev, sizeof(dev));
	wa_dm_group_release(&g);
	if (dm_addr_of(dev, &own) == 0 &&
	    (rc = wa_signal_group_forget(dm->sig, group, &own)) < 0) {
		log_warn("cannot drop our sender key: %s", wc_strerror(rc));
		first = rc;
	}
	if ((rc = dm->st->skr_forget(dm->st->arg, group, NULL)) < 0) {
		log_warn("cannot forget sender-key holders: %s",
		    wc_strerror(rc));
		if (first == 0)
			first = rc;
	}
	return first;
}

/* A copy of s in a. */
static char *
arena_str(struct arena *a, const char *s)
{
	size_t	 len = strlen(s) + 1;

	return memcpy(arena_alloc(a, len), s, len);
}

/* "Alice", "+4915…", "you" for a participant of an event line (p, or
 * when NULL the JID jid). */
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
	if (p != NULL && p->phone_number != NULL && jid_is_lid(j))
		j = p->phone_number;
	dm_name_of(dm, j, out, len);
}

/* The token of a participant in a group line's code (base/notice.h): p,
 * or when NULL the JID jid; "me" for us, "-" for nobody known; a LID
 * member by their phone number when the event gives it. */
static void
token(struct wa_dm *dm, const struct wa_group_participant *p,
    const char *jid, char *out, size_t len)
{
	const char	*j = p != NULL ? p->jid : jid;

	if (j == NULL || j[0] == '\0') {
		snprintf(out, len, "%s", NOTICE_GROUP_SOMEONE);
		return;
	}
	if (dm_is_own(dm, j) || (p != NULL && p->phone_number != NULL &&
	    dm_is_own(dm, p->phone_number))) {
		snprintf(out, len, "%s", NOTICE_GROUP_ME);
		return;
	}
	if (p != NULL && p->phone_number != NULL && jid_is_lid(j))
		j = p->phone_number;
	if ((size_t)snprintf(out, len, "%s", j) >= len)
		snprintf(out, len, "%s", NOTICE_GROUP_SOMEONE);
}

/* Line (its size len) as the code of a group line; "" when it cannot
 * be. */
static void
code(enum notice_group verb, const char *actor, const char *them,
    const char *subject, char *line, size_t len)
{
	if (notice_group_code(verb, actor, them, subject, line, len) != 1)
		log_warn("group line: too long, not shown");
}

/* --- our own change's records and lines, in one transaction --- */

/* A line of our own change, shown once its transaction commits. */
struct oline {
	char		 group[WA_DM_JID_MAX];
	char		 text[400];
	char		 id[WA_DM_ID_MAX];
};

/* The answer to our own change being recorded: otx_begin(), its writes
 * folded in by otx_keep() and its lines stored by otx_line(), then
 * otx_end(). */
struct otx {
	struct wa_dm	*dm;
	const char	*group;		/* for the error line */
	int64_t		 ts;
	int		 rc;		/* the first -ENOSPC or -EIO */
	bool		 begun;
	struct oline	*lines;
	size_t		 n;
};

static void
otx_begin(struct wa_dm *dm, struct otx *t, const char *group)
{
	memset(t, 0, sizeof(*t));
	t->dm = dm;
	t->group = group;
	t->ts = dm->host.now_ms(dm->host.arg);
	if ((t->rc = dm->st->tx_begin(dm->st->arg)) == 0)
		t->begun = true;
}

/* May a write go in (the transaction open, nothing failed)? */
static bool
otx_ok(const struct otx *t)
{
	return t->rc == 0;
}

/* Fold the result of one write into t: a store failure (-ENOSPC, -EIO)
 * undoes the whole change; another error is only logged. */
static void
otx_keep(struct otx *t, int rc, const char *what)
{
	if (rc >= 0)
		return;
	if (rc == -ENOSPC || rc == -EIO) {
		if (t->rc == 0)
			t->rc = rc;
	} else
		log_warn("group answer: %s: %s", what, wc_strerror(rc));
}

/* Store the line text in group, to be shown after the commit. */
static void
otx_line(struct otx *t, const char *group, const char *text)
{
	struct oline	*l;

	if (!otx_ok(t))
		return;
	t->lines = xrealloc(t->lines, (t->n + 1) * sizeof(*t->lines));
	l = &t->lines[t->n];
	snprintf(l->group, sizeof(l->group), "%s", group);
	snprintf(l->text, sizeof(l->text), "%s", text);
	otx_keep(t, dm_notice_put(t->dm, l->group, "", t->ts, l->text, l->id),
	    "a line");
	t->n++;
}

/* Commit and show the lines, or roll back: what the server did is not
 * recorded here then, which is logged and said (an error for the group),
 * and a full disk or an I/O error takes the module offline (the next
 * metadata query records the group as the server has it).  Returns 0 or
 * the store's error. */
static int
otx_end(struct otx *t, const char *what)
{
	struct wa_dm	*dm = t->dm;
	char		 line[200];
	size_t		 i;
	int		 rc = t->rc;

	if (t->begun && rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else if (t->begun)
		(void)dm->st->tx_rollback(dm->st->arg);
	if (rc == 0)
		for (i = 0; i < t->n; i++)
			dm_notice_show(dm, t->lines[i].group, "", t->ts,
			    t->lines[i].text, t->lines[i].id);
	else {
		log_warn("group answer: %s, not stored: %s", what,
		    wc_strerror(rc));
		snprintf(line, sizeof(line), "%s, but it could not be stored "
		    "here: %s", what, rc == -ENOSPC ? "the disk is full" :
		    wc_strerror(rc));
		dm_emit_error(dm, t->group[0] != '\0' ? t->group : NULL, rc,
		    line);
		(void)dm_store_failed(dm, rc);
	}
	free(t->lines);
	t->lines = NULL;
	t->n = 0;
	return rc;
}

/* --- the answers to our own queries and changes --- */

/* Our subject change went through: stored, and a line in the chat, in
 * one transaction. */
static int
own_subject(struct wa_dm *dm, const struct group_iq *q)
{
	struct otx	 t;
	char		 line[400];

	otx_begin(dm, &t, q->group);
	if (otx_ok(&t))
		otx_keep(&t, dm->st->group_subject(dm->st->arg, q->group,
		    q->subject), "the subject");
	code(NOTICE_GROUP_SUBJECT, NOTICE_GROUP_ME, NULL, q->subject, line,
	    sizeof(line));
	otx_line(&t, q->group, line);
	return otx_end(&t, "the subject was changed");
}

/* Our timer change went through: kept, and its line, in one
 * transaction (protocol-features.md 3.5). */
static int
own_ephemeral(struct wa_dm *dm, const struct group_iq *q)
{
	struct otx	 t;
	char		 line[160], n[16];

	otx_begin(dm, &t, q->group);
	if (otx_ok(&t) && dm->st->eph_set != NULL)
		otx_keep(&t, dm->st->eph_set(dm->st->arg, q->group,
		    q->eph_secs, dm->host.now_ms(dm->host.arg) / 1000, false),
		    "the timer");
	snprintf(n, sizeof(n), "%u", (unsigned)q->eph_secs);
	code(NOTICE_GROUP_EPHEMERAL, NOTICE_GROUP_ME, NULL, n, line,
	    sizeof(line));
	otx_line(&t, q->group, line);
	return otx_end(&t, "the timer was changed");
}

/* The change of a tag of a participants answer, and its line's verb
 * (base/notice.h: "You made NAME an admin"). */
static const struct {
	const char		*tag;
	enum wa_group_change	 what;
	enum notice_group	 verb;
} changes[] = {
	{ "add", WA_GROUP_ADD, NOTICE_GROUP_ADD },
	{ "remove", WA_GROUP_REMOVE, NOTICE_GROUP_REMOVE },
	{ "promote", WA_GROUP_PROMOTE, NOTICE_GROUP_PROMOTE },
	{ "demote", WA_GROUP_DEMOTE, NOTICE_GROUP_DEMOTE },
};

/* The words for a participant's error code err in an answer to what. */
static const char *
refusal(const char *err, enum wa_group_change what)
{
	if (strcmp(err, "409") == 0)
		return what == WA_GROUP_ADD ? "already a member" :
		    "already so";
	if (strcmp(err, "404") == 0)
		return "not on WhatsApp or not a member";
	if (strcmp(err, "403") == 0)
		return "not allowed";
	if (strcmp(err, "406") == 0)
		return "the group's creator stays";
	return "refused by the server";
}

/*
 * One <participant> of our change k (an index of changes[]): refused (an
 * error line) or recorded with a line.  Returns true when a member was
 * removed.
 */
static bool
own_participant(struct wa_dm *dm, const struct group_iq *q, size_t k,
    const struct wa_node *p, struct otx *t)
{
	enum wa_group_change	 what = changes[k].what;
	char			 jid[WA_DM_JID_MAX], pn[WA_DM_JID_MAX];
	char			 name[96], line[300], err[8];
	bool			 removed = false;

	if (!wa_str_eqc(p->tag, "participant") ||
	    !wa_node_jid(p, "jid", jid, sizeof(jid)))
		return false;
	if (!wa_node_jid(p, "phone_number", pn, sizeof(pn)))
		pn[0] = '\0';
	if (wa_node_str(p, "error").p != NULL) {
		/* one member refused: said, the rest done */
		wa_node_str_copy(p, "error", err, sizeof(err));
		who(dm, NULL, pn[0] != '\0' ? pn : jid, name, sizeof(name));
		snprintf(line, sizeof(line), "%s: %s", name, refusal(err,
		    what));
		dm_emit_error(dm, q->group, WC_EPROTO, line);
		return false;
	}
	if (!otx_ok(t))
		return false;
	if (what == WA_GROUP_REMOVE) {
		otx_keep(t, dm->st->group_member(dm->st->arg, q->group, jid,
		    NULL, -1), "a member");
		if (pn[0] != '\0' && otx_ok(t))
			otx_keep(t, dm->st->group_member(dm->st->arg, q->group,
			    pn, NULL, -1), "a member");
		removed = true;
	} else
		otx_keep(t, dm->st->group_member(dm->st->arg, q->group, jid,
		    pn[0] != '\0' ? pn : NULL,
		    what == WA_GROUP_PROMOTE ? 1 : 0), "a member");
	/* named when shown, by their PN when known */
	token(dm, NULL, pn[0] != '\0' ? pn : jid, name, sizeof(name));
	code(changes[k].verb, NOTICE_GROUP_ME, name, NULL, line,
	    sizeof(line));
	otx_line(t, q->group, line);
	return removed;
}

/*
 * Our participant change went through (whatsmeow group.go: the answer
 * holds <add|remove|promote|demote><participant jid [error]/>...): each
 * participant without an error is recorded, with a line, all in one
 * transaction; a removal replaces our sender key (10.4) so the removed
 * cannot read what follows (even when the records failed: the server
 * removed them).  Returns 0 or the store's error.
 */
static int
own_participants(struct wa_dm *dm, const struct group_iq *q,
    const struct wa_node *n)
{
	const struct wa_node	*c;
	struct otx		 t;
	size_t			 i, k, p, nc = wa_node_nkids(n);
	bool			 removed = false;
	int			 rc;

	otx_begin(dm, &t, q->group);
	for (i = 0; i < nc; i++) {
		c = wa_node_kid(n, i);
		for (k = 0; k < sizeof(changes) / sizeof(changes[0]); k++)
			if (wa_str_eqc(c->tag, changes[k].tag))
				break;
		if (k == sizeof(changes) / sizeof(changes[0]))
			continue;
		for (p = 0; p < wa_node_nkids(c); p++)
			removed |= own_participant(dm, q, k, wa_node_kid(c, p),
			    &t);
	}
	rc = otx_end(&t, "the members were changed");
	if (removed)
		(void)rotate(dm, q->group);
	return rc;
}

/* The words and error for a refused answer of a group query. */
static void
query_failed(struct wa_dm *dm, const struct group_iq *q, int rc)
{
	if (q->what == GQ_JOB)
		dm_job_meta(dm, q->group, rc, rc == -EACCES || rc == -ENOENT ?
		    "you are not a member of this group" :
		    "the server did not describe the group");
	else if (q->what == GQ_CREATE)
		dm_emit_error(dm, NULL, rc, "the group could not be created");
}

/* The group we created: stored with its line, in one transaction, then
 * shown. */
static void
own_create(struct wa_dm *dm, const struct wa_group_info *g)
{
	struct otx	 t;
	char		 line[128];

	otx_begin(dm, &t, g->jid);
	if (otx_ok(&t))
		otx_keep(&t, dm->st->group_put(dm->st->arg, g), "the group");
	code(NOTICE_GROUP_CREATE, NOTICE_GROUP_ME, NULL, NULL, line,
	    sizeof(line));
	otx_line(&t, g->jid, line);
	if (otx_end(&t, "the group was created") == 0)
		dm_emit_group(dm, g->jid, false);
}

/* The answer to a metadata query (GQ_JOB, GQ_INFO, GQ_PARTICIPATING,
 * GQ_CREATE): the groups stored, a line for one we created, the job's
 * metadata. */
static void
on_info(struct wa_dm *dm, const struct group_iq *q, const struct wa_node *n)
{
	struct wa_group_info	*gs = NULL;
	struct arena		 a;
	const char		*why = NULL;
	size_t			 i, ng = 0;
	int			 rc;

	arena_init(&a, 4096);
	rc = wa_group_iq_parse(n, &a, &gs, &ng, &why);
	if (rc == -EACCES || rc == -ENOENT) {
		/* not (or no longer) a member, or no such group */
		if (q->group[0] != '\0') {
			(void)dm->st->group_left(dm->st->arg, q->group, true);
			dm_emit_group(dm, q->group, true);
		}
		query_failed(dm, q, rc);
	} else if (rc != 0) {
		log_warn("group answer: %s", why != NULL ? why :
		    wc_strerror(rc));
		query_failed(dm, q, rc);
	} else if (q->what == GQ_CREATE && ng == 1)
		own_create(dm, &gs[0]);
	else {
		for (i = 0; i < ng; i++)
			put_info(dm, &gs[i]);
		if (q->what == GQ_PARTICIPATING)
			log_info("member of %zu groups", ng);
		if (q->what == GQ_JOB)
			dm_job_meta(dm, q->group, 0, NULL);
	}
	arena_release(&a);
}

/* A refused change: an error event with the reason in words. */
static void
change_refused(struct wa_dm *dm, const struct group_iq *q,
    const struct wa_node *n)
{
	const struct wa_node	*er = wa_node_child(n, "error");
	char			 line[160];
	int64_t			 code = 0;

	if (er != NULL)
		(void)wa_node_num(er, "code", &code);
	snprintf(line, sizeof(line), "%s: %s", q->what == GQ_SUBJECT ?
	    "the subject could not be changed" : q->what == GQ_EPHEMERAL ?
	    "disappearing messages could not be changed" :
	    q->what == GQ_LEAVE ?
	    "the group could not be left" : "the members could not be changed",
	    code == 403 ? "only the group's admins may" : code == 404 ?
	    "no such group" : "the server refused it");
	dm_emit_error(dm, q->group, code == 403 ? -EACCES : code == 404 ?
	    -ENOENT : WC_EPROTO, line);
}

/* We left: recorded with its line, in one transaction, then shown. */
static void
own_leave(struct wa_dm *dm, const struct group_iq *q)
{
	struct otx	 t;
	char		 line[128];

	otx_begin(dm, &t, q->group);
	if (otx_ok(&t))
		otx_keep(&t, dm->st->group_left(dm->st->arg, q->group, true),
		    "left");
	code(NOTICE_GROUP_LEFT, NOTICE_GROUP_ME, NOTICE_GROUP_ME, NULL, line,
	    sizeof(line));
	otx_line(&t, q->group, line);
	if (otx_end(&t, "you left the group") == 0)
		dm_emit_group(dm, q->group, true);
}

/* The answer to a change (GQ_SUBJECT, GQ_PARTICIPANTS, GQ_LEAVE). */
static void
on_change(struct wa_dm *dm, const struct group_iq *q, const struct wa_node *n)
{
	int	 rc;

	if (!wa_node_str_is(n, "type", "result")) {
		change_refused(dm, q, n);
		return;
	}
	if (q->what == GQ_LEAVE) {
		own_leave(dm, q);
		return;
	}
	/* The server tells the other members; our own change is ours to
	 * record (the acting device gets no w:gp2). */
	if (q->what == GQ_SUBJECT)
		rc = own_subject(dm, q);
	else if (q->what == GQ_EPHEMERAL)
		rc = own_ephemeral(dm, q);
	else
		rc = own_participants(dm, q, n);
	if (rc != 0)
		return;		/* offline soon: no refresh now */
	if ((rc = dm_group_ask(dm, GQ_INFO, q->group)) != 0)
		log_warn("group refresh: %s", wc_strerror(rc));
}

int
dm_group_on_iq(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_str	 id = wa_node_str(n, "id");
	struct group_iq	 q;
	size_t		 i;

	for (i = 0; i < DM_GROUP_IQS; i++)
		if (dm->giq[i].iq[0] != '\0' && wa_str_eqc(id, dm->giq[i].iq))
			break;
	if (i == DM_GROUP_IQS)
		return 0;
	q = dm->giq[i];
	dm->giq[i].iq[0] = '\0';
	switch ((enum dm_gq)q.what) {
	case GQ_JOB:
	case GQ_INFO:
	case GQ_PARTICIPATING:
	case GQ_CREATE:
		on_info(dm, &q, n);
		break;
	case GQ_SUBJECT:
	case GQ_PARTICIPANTS:
	case GQ_LEAVE:
	case GQ_EPHEMERAL:
		on_change(dm, &q, n);
		break;
	}
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
wa_dm_group_ephemeral(struct wa_dm *dm, const char *group, uint32_t secs)
{
	struct group_iq	*q;
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	if (!is_group(group) || secs > WA_DM_EPH_MAX)
		return -EINVAL;
	if (!dm->online)
		return -ENOTCONN;
	if ((q = giq_new(dm, GQ_EPHEMERAL, group)) == NULL)
		return -EBUSY;
	q->eph_secs = secs;
	arena_init(&a, 512);
	rc = wa_group_set_ephemeral(q->iq, group, secs, &a, &n);
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
	return dm_group_ask(dm, GQ_INFO, group);
}

/* --- notifications (11.7) --- */

/* An event line stored, shown once the notification has committed. */
struct gline {
	const char	*g;		/* the group (the parsed event's) */
	char		*text;		/* in the notification's arena */
	int64_t		 ts;
	char		 id[WA_DM_ID_MAX];
};

/* What the handlers of one notification event share. */
struct gev {
	const struct wa_group_event *e;
	const char	*g;		/* the group */
	char		 actor[96];	/* who did it */
	char		 them[512];	/* the participants, named */
	char		 line[800];	/* the event line, "" for none */
	bool		 left;		/* we are out */
	bool		 refresh;	/* ask the metadata afresh */
	int		 rc;		/* the first write that failed, 0 */
};

/* Fold the result of one write into v: a store failure (-ENOSPC, -EIO)
 * undoes the whole notification; another error is only logged. */
static void
keep(struct gev *v, int rc, const char *what)
{
	if (rc >= 0)
		return;
	if (rc == -ENOSPC || rc == -EIO) {
		if (v->rc == 0)
			v->rc = rc;
	} else
		log_warn("group notification: %s: %s", what, wc_strerror(rc));
}

/* The tokens of an event's participants, joined with "," (those that
 * do not fit left out). */
static void
names(struct wa_dm *dm, const struct wa_group_event *e, char *out, size_t len)
{
	char	 one[96];
	size_t	 i, k = 0;
	int	 n;

	out[0] = '\0';
	for (i = 0; i < e->n_participants; i++) {
		token(dm, &e->participants[i], NULL, one, sizeof(one));
		n = snprintf(out + k, len - k, "%s%s", k > 0 ? "," : "", one);
		if (n < 0 || (size_t)n >= len - k) {
			out[k] = '\0';
			break;
		}
		k += (size_t)n;
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

static void
ev_create(struct wa_dm *dm, struct gev *v)
{
	if (v->e->created != NULL)
		keep(v, dm->st->group_put(dm->st->arg, v->e->created),
		    "the group");
	code(NOTICE_GROUP_CREATE, v->actor, NULL, NULL, v->line,
	    sizeof(v->line));
}

static void
ev_subject(struct wa_dm *dm, struct gev *v)
{
	if (v->e->subject == NULL)
		return;
	keep(v, dm->st->group_subject(dm->st->arg, v->g, v->e->subject),
	    "the subject");
	code(NOTICE_GROUP_SUBJECT, v->actor, NULL, v->e->subject, v->line,
	    sizeof(v->line));
}

static void
ev_description(struct wa_dm *dm, struct gev *v)
{
	(void)dm;
	v->refresh = true;
	code(NOTICE_GROUP_DESCRIPTION, v->actor, NULL, NULL, v->line,
	    sizeof(v->line));
}

static void
ev_add(struct wa_dm *dm, struct gev *v)
{
	const struct wa_group_participant *p;
	size_t	 k;

	for (k = 0; k < v->e->n_participants; k++) {
		p = &v->e->participants[k];
		keep(v, dm->st->group_member(dm->st->arg, v->g, p->jid,
		    p->phone_number != NULL ? p->phone_number : p->lid, 0),
		    "a member");
	}
	if (touches_us(dm, v->e)) {
		keep(v, dm->st->group_left(dm->st->arg, v->g, false),
		    "joined");
		v->refresh = true;
	}
	code(NOTICE_GROUP_ADD, v->actor, v->them, NULL, v->line,
	    sizeof(v->line));
}

static void
ev_remove(struct wa_dm *dm, struct gev *v)
{
	const struct wa_group_participant *p;
	size_t	 k;

	for (k = 0; k < v->e->n_participants; k++) {
		p = &v->e->participants[k];
		keep(v, dm->st->group_member(dm->st->arg, v->g, p->jid, NULL,
		    -1), "a member");
		if (p->phone_number != NULL)
			keep(v, dm->st->group_member(dm->st->arg, v->g,
			    p->phone_number, NULL, -1), "a member");
	}
	/* whoever is gone must not read what follows */
	keep(v, rotate(dm, v->g), "our sender key");
	if (touches_us(dm, v->e)) {
		keep(v, dm->st->group_left(dm->st->arg, v->g, true), "left");
		v->left = true;
	}
	/* a member who removes only themselves left (as Baileys reads it) */
	if (v->e->kind == WA_GROUP_EV_LEAVE || (v->e->n_participants == 1 &&
	    strcmp(v->actor, v->them) == 0))
		code(NOTICE_GROUP_LEFT, v->them, v->them, NULL, v->line,
		    sizeof(v->line));
	else
		code(NOTICE_GROUP_REMOVE, v->actor, v->them, NULL, v->line,
		    sizeof(v->line));
}

static void
ev_admin(struct wa_dm *dm, struct gev *v)
{
	bool	 promote = v->e->kind == WA_GROUP_EV_PROMOTE;
	size_t	 k;

	for (k = 0; k < v->e->n_participants; k++)
		keep(v, dm->st->group_member(dm->st->arg, v->g,
		    v->e->participants[k].jid, NULL, promote ? 1 : 0),
		    "a member");
	code(promote ? NOTICE_GROUP_PROMOTE : NOTICE_GROUP_DEMOTE, v->actor,
	    v->them, NULL, v->line, sizeof(v->line));
}

static void
ev_modify(struct wa_dm *dm, struct gev *v)
{
	keep(v, rotate(dm, v->g), "our sender key");
}

static void
ev_delete(struct wa_dm *dm, struct gev *v)
{
	keep(v, dm->st->group_left(dm->st->arg, v->g, true), "left");
	v->left = true;
	code(NOTICE_GROUP_DELETED, v->actor, NULL, NULL, v->line,
	    sizeof(v->line));
}

/* The group's disappearing-messages timer (<ephemeral expiration/>,
 * <not_ephemeral/>; protocol-features.md 3.5): kept, and when it changed
 * the line "Bob turned on disappearing messages: 7 days". */
static void
ev_ephemeral(struct wa_dm *dm, struct gev *v)
{
	int64_t	 secs = v->e->kind == WA_GROUP_EV_EPHEMERAL ?
		    v->e->expiration_s : 0;
	char	 n[24];
	int	 rc;

	if (dm->st->eph_set == NULL || secs < 0 || secs > 366 * 86400) {
		log_warn("group notification: a timer of %lld s, ignored",
		    (long long)secs);
		return;
	}
	rc = dm->st->eph_set(dm->st->arg, v->g, (uint32_t)secs, v->e->t > 0 ?
	    v->e->t : dm->host.now_ms(dm->host.arg) / 1000, true);
	keep(v, rc, "the timer");
	if (rc != 1)
		return;
	snprintf(n, sizeof(n), "%lld", (long long)secs);
	code(NOTICE_GROUP_EPHEMERAL, v->actor, NULL, n, v->line,
	    sizeof(v->line));
}

/* The handler of each kind of event; the kinds not listed change
 * nothing we keep. */
static const struct {
	enum wa_group_ev_kind	 kind;
	void			(*fn)(struct wa_dm *, struct gev *);
} gev_handlers[] = {
	{ WA_GROUP_EV_CREATE, ev_create },
	{ WA_GROUP_EV_SUBJECT, ev_subject },
	{ WA_GROUP_EV_DESCRIPTION, ev_description },
	{ WA_GROUP_EV_ADD, ev_add },
	{ WA_GROUP_EV_REMOVE, ev_remove },
	{ WA_GROUP_EV_LEAVE, ev_remove },
	{ WA_GROUP_EV_PROMOTE, ev_admin },
	{ WA_GROUP_EV_DEMOTE, ev_admin },
	{ WA_GROUP_EV_MODIFY, ev_modify },
	{ WA_GROUP_EV_DELETE, ev_delete },
	{ WA_GROUP_EV_EPHEMERAL, ev_ephemeral },
	{ WA_GROUP_EV_NOT_EPHEMERAL, ev_ephemeral },
};

/* One event of a notification, in its transaction: its handler, then
 * its line stored into *gl (gl->text NULL: none). */
static void
on_event(struct wa_dm *dm, struct gev *v, struct arena *a, struct gline *gl)
{
	const struct wa_group_event *e = v->e;
	int64_t		 ts = e->t > 0 ? e->t * 1000 :
			    dm->host.now_ms(dm->host.arg);
	size_t		 i;

	v->g = e->group;
	token(dm, NULL, e->author_pn != NULL ? e->author_pn : e->author,
	    v->actor, sizeof(v->actor));
	if (e->author == NULL)
		snprintf(v->actor, sizeof(v->actor), "%s",
		    NOTICE_GROUP_SOMEONE);
	names(dm, e, v->them, sizeof(v->them));
	v->line[0] = '\0';
	for (i = 0; i < sizeof(gev_handlers) / sizeof(gev_handlers[0]); i++)
		if (gev_handlers[i].kind == e->kind) {
			gev_handlers[i].fn(dm, v);
			break;
		}
	gl->text = NULL;
	if (v->line[0] == '\0' || v->rc != 0)
		return;
	gl->g = v->g;
	gl->ts = ts;
	keep(v, dm_notice_put(dm, v->g, "", ts, v->line, gl->id), "a line");
	gl->text = arena_str(a, v->line);
}

/* After the commit: the lines, a refresh when wanted, the group. */
static void
notified(struct wa_dm *dm, const struct gev *v,
    const struct wa_group_event *ev, size_t ne, const struct gline *gl)
{
	size_t	 i;
	int	 rc;

	for (i = 0; i < ne; i++)
		if (gl[i].text != NULL)
			dm_notice_show(dm, gl[i].g, "", gl[i].ts, gl[i].text,
			    gl[i].id);
	if (ne == 0)
		return;
	if (v->refresh && !v->left && (rc = dm_group_ask(dm, GQ_INFO,
	    ev[0].group)) != 0)
		log_warn("group refresh: %s", wc_strerror(rc));
	dm_emit_group(dm, ev[0].group, v->left);
}

int
dm_group_on_notification(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_group_event	*ev = NULL;
	struct gline		*gl;
	struct gev		 v;
	struct arena		 a;
	const char		*why = NULL;
	size_t			 i, ne = 0;
	int			 rc;

	arena_init(&a, 2048);
	if ((rc = wa_group_notification_parse(n, &a, &ev, &ne, &why)) != 0) {
		log_warn("a malformed group notification: %s", why != NULL ?
		    why : wc_strerror(rc));
		arena_release(&a);
		return 0;
	}
	memset(&v, 0, sizeof(v));
	gl = arena_alloc(&a, (ne > 0 ? ne : 1) * sizeof(*gl));
	/* every change and line of it commit together, or none */
	if ((v.rc = dm->st->tx_begin(dm->st->arg)) == 0) {
		for (i = 0; i < ne && v.rc == 0; i++) {
			v.e = &ev[i];
			on_event(dm, &v, &a, &gl[i]);
		}
		if (v.rc == 0)
			v.rc = dm->st->tx_commit(dm->st->arg);
		else
			(void)dm->st->tx_rollback(dm->st->arg);
	}
	if ((rc = v.rc) == 0)
		notified(dm, &v, ev, ne, gl);
	else if (dm_store_failed(dm, rc))
		log_warn("group notification: not stored (%s): not acked, the "
		    "server sends it again", wc_strerror(rc));
	else {
		log_warn("group notification: %s", wc_strerror(rc));
		rc = 0;
	}
	arena_release(&a);
	return rc;
}
