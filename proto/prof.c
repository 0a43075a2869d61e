/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/prof.c -- profiles and the blocklist in the engine
 * (proto/prof.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_TAG "prof"

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/http-get.h"
#include "proto/node.h"
#include "proto/prof.h"

enum iq_kind { IQ_FREE, IQ_BL_GET, IQ_BL_SET, IQ_PIC, IQ_STATUS };

struct prof_iq {
	enum iq_kind	 kind;
	char		 id[32];
	char		 jid[WA_PROF_JID_MAX];
	bool		 block;
};

/* What is known of the contact asked for last. */
struct cur {
	char		 jid[WA_PROF_JID_MAX];	/* "" none */
	bool		 about_known;
	char		 about[WA_PROF_ABOUT_MAX];
	int64_t		 about_ms;
	enum wa_prof_pic_state pic_state;
	char		 pic_id[WA_PROF_PIC_ID_MAX];
	struct buf	 pic;
	unsigned	 waiting;	/* answers still out */
	struct wa_http_get *dl;		/* the picture's download */
};

struct wa_prof {
	struct wa_prof_host	 host;
	char			*dir;
	wa_prof_event_fn	 on_event;
	void			*ev_arg;
	bool			 online;
	struct wa_blocklist	 bl;
	struct prof_iq		 iq[WA_PROF_IQS];
	struct cur		 cur;
};

int
wa_prof_new(const struct wa_prof_host *host, const char *dir,
    wa_prof_event_fn on_event, void *ev_arg, struct wa_prof **out)
{
	struct wa_prof	*p;

	if (host == NULL || host->send == NULL || host->iq_id == NULL ||
	    host->loop == NULL || dir == NULL || dir[0] == '\0' ||
	    on_event == NULL || out == NULL)
		return -EINVAL;
	p = xcalloc(1, sizeof(*p));
	p->host = *host;
	p->dir = xstrdup(dir);
	p->on_event = on_event;
	p->ev_arg = ev_arg;
	wa_blocklist_init(&p->bl);
	*out = p;
	return 0;
}

static void
cur_reset(struct wa_prof *p)
{
	wa_http_get_cancel(p->cur.dl);
	buf_release(&p->cur.pic);
	memset(&p->cur, 0, sizeof(p->cur));
}

void
wa_prof_free(struct wa_prof *p)
{
	if (p == NULL)
		return;
	cur_reset(p);
	wa_blocklist_release(&p->bl);
	free(p->dir);
	free(p);
}

/* ---- queries ---- */

static struct prof_iq *
iq_slot(struct wa_prof *p)
{
	size_t	 i;

	for (i = 0; i < WA_PROF_IQS; i++)
		if (p->iq[i].kind == IQ_FREE)
			return &p->iq[i];
	return NULL;
}

/* Send n as the query of slot q (kind, jid); the slot is freed again
 * when the send fails.  Returns 0 or the send's error. */
static int
iq_send(struct wa_prof *p, struct prof_iq *q, const struct wa_node *n)
{
	int	 rc = p->host.send(p->host.arg, n);

	if (rc != 0) {
		log_warn("%s query not sent: %s", q->kind == IQ_PIC ?
		    "picture" : q->kind == IQ_STATUS ? "about" : "blocklist",
		    wc_strerror(rc));
		q->kind = IQ_FREE;
	}
	return rc;
}

/* The other JID of user into out (a PN's LID, a LID's PN): true when
 * the host knows it. */
static bool
alt_of(const struct wa_prof *p, const char *user, char out[WA_PROF_JID_MAX])
{
	return p->host.lid_alt != NULL && p->host.lid_alt(p->host.lid_arg,
	    user, out, WA_PROF_JID_MAX) == 1 && out[0] != '\0';
}

/* The list said: each entry, and beside it its other JID when known (a
 * LID's PN, so that the chat of a PN is marked). */
static void
say_blocklist(struct wa_prof *p)
{
	struct wa_prof_ev	 ev;
	struct wa_blocklist	 all;
	char			 alt[WA_PROF_JID_MAX];
	size_t			 i;

	wa_blocklist_init(&all);
	for (i = 0; i < p->bl.n; i++) {
		(void)wa_blocklist_set(&all, p->bl.v[i], true);
		if (alt_of(p, p->bl.v[i], alt))
			(void)wa_blocklist_set(&all, alt, true);
	}
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_PROF_EV_BLOCKLIST;
	ev.bl = &all;
	p->on_event(p->ev_arg, &ev);
	wa_blocklist_release(&all);
}

static void
say_refused(struct wa_prof *p, const struct prof_iq *q, int err)
{
	struct wa_prof_ev	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_PROF_EV_REFUSED;
	ev.jid = q->jid;
	ev.block = q->block;
	ev.err = err;
	p->on_event(p->ev_arg, &ev);
}

static void
say_profile(struct wa_prof *p)
{
	struct wa_prof_ev	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_PROF_EV_PROFILE;
	ev.jid = p->cur.jid;
	ev.about_known = p->cur.about_known;
	ev.about = p->cur.about;
	ev.about_ms = p->cur.about_ms;
	ev.pic_state = p->cur.pic_state;
	ev.pic_id = p->cur.pic_id;
	if (p->cur.pic_state == WA_PROF_PIC_SHOWN) {
		ev.pic = p->cur.pic.p;
		ev.pic_len = p->cur.pic.len;
	}
	p->on_event(p->ev_arg, &ev);
}

void
wa_prof_online(struct wa_prof *p)
{
	struct prof_iq	*q;
	struct arena	 a;

	if (p == NULL)
		return;
	p->online = true;
	if ((q = iq_slot(p)) == NULL)
		return;
	q->kind = IQ_BL_GET;
	p->host.iq_id(p->host.arg, q->id);
	arena_init(&a, 0);
	(void)iq_send(p, q, wa_prof_blocklist_get(&a, q->id));
	arena_release(&a);
}

void
wa_prof_offline(struct wa_prof *p)
{
	size_t	 i;

	if (p == NULL)
		return;
	p->online = false;
	for (i = 0; i < WA_PROF_IQS; i++) {
		if (p->iq[i].kind == IQ_BL_SET)
			say_refused(p, &p->iq[i], -ENOTCONN);
		p->iq[i].kind = IQ_FREE;
	}
	p->cur.waiting = 0;
}

/* Two slots for jid's queries; -EBUSY when there are not. */
static int
two_slots(struct wa_prof *p, struct prof_iq **a, struct prof_iq **b)
{
	if ((*a = iq_slot(p)) == NULL)
		return -EBUSY;
	(*a)->kind = IQ_PIC;
	if ((*b = iq_slot(p)) == NULL) {
		(*a)->kind = IQ_FREE;
		return -EBUSY;
	}
	(*a)->kind = IQ_FREE;
	return 0;
}

static bool
is_group(const char *jid)
{
	const char	*at = strrchr(jid, '@');

	return at != NULL && strcmp(at + 1, "g.us") == 0;
}

int
wa_prof_ask(struct wa_prof *p, const char *jid)
{
	struct prof_iq	*qp, *qs;
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	if (p == NULL || jid == NULL || jid[0] == '\0' ||
	    strlen(jid) >= WA_PROF_JID_MAX || strchr(jid, '@') == NULL)
		return -EINVAL;
	if (!p->online)
		return -ENOTCONN;
	if ((rc = two_slots(p, &qp, &qs)) != 0)
		return rc;
	cur_reset(p);
	snprintf(p->cur.jid, sizeof(p->cur.jid), "%s", jid);
	arena_init(&a, 0);
	qp->kind = IQ_PIC;
	snprintf(qp->jid, sizeof(qp->jid), "%s", jid);
	p->host.iq_id(p->host.arg, qp->id);
	if ((rc = wa_prof_picture_get(&a, qp->id, jid, true, &n)) != 0 ||
	    (rc = iq_send(p, qp, n)) != 0) {
		qp->kind = IQ_FREE;
		arena_release(&a);
		return rc;
	}
	p->cur.waiting = 1;
	if (!is_group(jid)) {
		qs->kind = IQ_STATUS;
		snprintf(qs->jid, sizeof(qs->jid), "%s", jid);
		p->host.iq_id(p->host.arg, qs->id);
		if (wa_prof_status_get(&a, qs->id, jid, &n) == 0 &&
		    iq_send(p, qs, n) == 0)
			p->cur.waiting++;
		else
			qs->kind = IQ_FREE;
	}
	arena_release(&a);
	return 0;
}

static bool
is_lid(const char *jid)
{
	const char	*at = strrchr(jid, '@');

	return at != NULL && strcmp(at + 1, "lid") == 0;
}

int
wa_prof_block(struct wa_prof *p, const char *jid, bool block)
{
	struct prof_iq	*q;
	struct arena	 a;
	struct wa_node	*n;
	char		 alt[WA_PROF_JID_MAX];
	const char	*pn = NULL;
	int		 rc;

	if (p == NULL || jid == NULL || strlen(jid) >= WA_PROF_JID_MAX ||
	    strchr(jid, '@') == NULL || is_group(jid))
		return -EINVAL;
	if (!p->online)
		return -ENOTCONN;
	if (wa_prof_blocked(p, jid) == block)
		return -EALREADY;
	if ((q = iq_slot(p)) == NULL)
		return -EBUSY;
	q->kind = IQ_BL_SET;
	q->block = block;
	/* by the LID, the PN beside it when blocking ([WM] UpdateBlocklist;
	 * the LID unknown: the PN alone) */
	if (!is_lid(jid) && alt_of(p, jid, alt) && is_lid(alt)) {
		snprintf(q->jid, sizeof(q->jid), "%s", alt);
		pn = block ? jid : NULL;
	} else
		snprintf(q->jid, sizeof(q->jid), "%s", jid);
	p->host.iq_id(p->host.arg, q->id);
	arena_init(&a, 0);
	if ((rc = wa_prof_blocklist_set(&a, q->id, q->jid, pn, block, &n)) ==
	    0)
		rc = iq_send(p, q, n);
	else
		q->kind = IQ_FREE;
	arena_release(&a);
	return rc;
}

bool
wa_prof_blocked(const struct wa_prof *p, const char *jid)
{
	char	 alt[WA_PROF_JID_MAX];

	if (p == NULL || jid == NULL)
		return false;
	return wa_blocklist_has(&p->bl, jid) || (alt_of(p, jid, alt) &&
	    wa_blocklist_has(&p->bl, alt));
}

/* ---- the picture's cache and download ---- */

static void
pic_path(const struct wa_prof *p, const char *id, char *out, size_t len)
{
	snprintf(out, len, "%s/%s.jpg", p->dir, id);
}

/* The cached picture of id into the current record: true when there. */
static bool
pic_cached(struct wa_prof *p, const char *id)
{
	char		 path[4096];
	uint8_t		 chunk[8192];
	ssize_t		 n;
	int		 fd;

	pic_path(p, id, path, sizeof(path));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	p->cur.pic.len = 0;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0 &&
	    p->cur.pic.len + (size_t)n <= WA_PROF_PIC_BYTES)
		buf_append(&p->cur.pic, chunk, (size_t)n);
	(void)close(fd);
	return n == 0 && p->cur.pic.len > 0;
}

/* Keep the picture under its id: written to a temporary name, then
 * renamed.  Errors are logged only (it is fetched again next time). */
static void
pic_keep(struct wa_prof *p, const char *id, const uint8_t *b, size_t len)
{
	char	 path[4096], tmp[4200];
	int	 fd;
	bool	 ok;

	if (mkdir(p->dir, 0700) != 0 && errno != EEXIST) {
		log_warn("cannot make the picture folder: %s",
		    strerror(errno));
		return;
	}
	pic_path(p, id, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) < 0) {
		log_warn("cannot keep a picture: %s", strerror(errno));
		return;
	}
	ok = write(fd, b, len) == (ssize_t)len;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		log_warn("cannot keep a picture: %s", strerror(errno));
		(void)unlink(tmp);
	}
}

static void
pic_done(void *arg, int err, long status, uint8_t *body, size_t len,
    const char *why)
{
	struct wa_prof	*p = arg;

	p->cur.dl = NULL;
	if (err != 0 || status != 200 || len == 0) {
		log_warn("picture download failed: %s (HTTP %ld)",
		    err != 0 ? why : "no picture", status);
		p->cur.pic_state = WA_PROF_PIC_FAILED;
	} else {
		buf_release(&p->cur.pic);
		buf_append(&p->cur.pic, body, len);
		pic_keep(p, p->cur.pic_id, body, len);
		p->cur.pic_state = WA_PROF_PIC_SHOWN;
	}
	free(body);
	say_profile(p);
}

/* The picture's answer: from the cache, downloaded, or its absence. */
static void
on_pic(struct wa_prof *p, const struct wa_node *n)
{
	struct wa_prof_pic	 pic;
	struct wa_http_req	 r;
	int			 rc = wa_prof_picture_parse(n, &pic);

	p->cur.pic_state = rc == -ENOENT ? WA_PROF_PIC_NONE : rc == -EACCES ?
	    WA_PROF_PIC_HIDDEN : WA_PROF_PIC_FAILED;
	if (rc == 0 && !wa_prof_pic_id_ok(pic.id))
		rc = WC_EPROTO;
	if (rc != 0) {
		if (rc != -ENOENT && rc != -EACCES)
			log_warn("picture answer refused: %s",
			    wc_strerror(rc));
		return;
	}
	snprintf(p->cur.pic_id, sizeof(p->cur.pic_id), "%s", pic.id);
	if (pic_cached(p, pic.id)) {
		p->cur.pic_state = WA_PROF_PIC_SHOWN;
		return;
	}
	p->cur.pic_state = WA_PROF_PIC_ASKING;
	memset(&r, 0, sizeof(r));
	r.url = pic.url;
	r.ca_file = p->host.ca_file;
	r.timeout_ms = WA_PROF_HTTP_MS;
	r.max_body = WA_PROF_PIC_BYTES;
	if ((rc = wa_http_get(p->host.loop, &r, pic_done, p, &p->cur.dl)) !=
	    0) {
		log_warn("picture download not started: %s", wc_strerror(rc));
		p->cur.pic_state = WA_PROF_PIC_FAILED;
	}
}

static void
on_status(struct wa_prof *p, const struct wa_node *n)
{
	struct wa_prof_status	 st;
	int			 rc = wa_prof_status_parse(n, p->cur.jid, &st);

	if (rc != 0) {
		log_warn("about answer refused: %s", wc_strerror(rc));
		return;
	}
	p->cur.about_known = st.known;
	snprintf(p->cur.about, sizeof(p->cur.about), "%s", st.text);
	p->cur.about_ms = st.t * 1000;
}

/* ---- answers and notifications ---- */

static int
iq_err(const struct wa_node *n)
{
	int64_t	 code = 0;

	if (wa_node_num(wa_node_child(n, "error"), "code", &code) == 1 &&
	    code > 0 && code < 1000)
		return (int)code;
	return WC_EPROTO;
}

static void
on_bl_set(struct wa_prof *p, const struct prof_iq *q,
    const struct wa_node *n)
{
	int	 rc;

	if (!wa_node_str_is(n, "type", "result")) {
		log_warn("the server refused a blocklist change");
		say_refused(p, q, iq_err(n));
		return;
	}
	if ((rc = wa_blocklist_set(&p->bl, q->jid, q->block)) < 0) {
		say_refused(p, q, rc);
		return;
	}
	say_blocklist(p);
}

static void
on_answer(struct wa_prof *p, struct prof_iq *q, const struct wa_node *n)
{
	struct prof_iq	 was = *q;
	int		 rc;

	q->kind = IQ_FREE;
	switch (was.kind) {
	case IQ_BL_GET:
		if ((rc = wa_prof_blocklist_parse(n, &p->bl)) < 0)
			log_warn("blocklist answer refused: %s",
			    wc_strerror(rc));
		else
			say_blocklist(p);
		return;
	case IQ_BL_SET:
		on_bl_set(p, &was, n);
		return;
	case IQ_PIC:
	case IQ_STATUS:
		if (strcmp(was.jid, p->cur.jid) != 0)
			return;		/* another contact's, forgotten */
		if (was.kind == IQ_PIC)
			on_pic(p, n);
		else
			on_status(p, n);
		if (p->cur.waiting > 0 && --p->cur.waiting == 0)
			say_profile(p);
		return;
	case IQ_FREE:
		return;
	}
}

/* <notification type="picture"> naming the contact asked for last: ask
 * again (its picture's id changed, or it is gone). */
static void
on_picture_note(struct wa_prof *p, const struct wa_node *n)
{
	char	 jid[WA_PROF_JID_MAX] = "", from[WA_PROF_JID_MAX] = "";
	size_t	 i;

	(void)wa_node_jid(n, "from", from, sizeof(from));
	for (i = 0; i < wa_node_nkids(n) && jid[0] == '\0'; i++)
		if (!wa_node_jid(wa_node_kid(n, i), "jid", jid, sizeof(jid)))
			jid[0] = '\0';
	if (jid[0] == '\0')
		memcpy(jid, from, sizeof(jid));
	log_info("a contact's picture changed");
	if (p->cur.jid[0] != '\0' && strcmp(jid, p->cur.jid) == 0 &&
	    wa_prof_ask(p, jid) != 0)
		log_warn("changed picture not asked for");
}

bool
wa_prof_stanza(struct wa_prof *p, const struct wa_node *n)
{
	const struct wa_node	*bl;
	struct wa_str		 id;
	size_t			 i;
	int			 rc;

	if (p == NULL || n == NULL)
		return false;
	if (wa_str_eqc(n->tag, "notification")) {
		if (wa_node_str_is(n, "type", "picture")) {
			on_picture_note(p, n);
			return true;
		}
		if (!wa_node_str_is(n, "type", "account_sync") ||
		    (bl = wa_node_child(n, "blocklist")) == NULL)
			return false;
		if ((rc = wa_prof_blocklist_change(bl, &p->bl)) < 0)
			log_warn("blocklist notification refused: %s",
			    wc_strerror(rc));
		else
			say_blocklist(p);
		return true;
	}
	if (!wa_str_eqc(n->tag, "iq") || (id = wa_node_str(n, "id")).len == 0)
		return false;
	for (i = 0; i < WA_PROF_IQS; i++)
		if (p->iq[i].kind != IQ_FREE && wa_str_eqc(id, p->iq[i].id)) {
			on_answer(p, &p->iq[i], n);
			return true;
		}
	return false;
}
