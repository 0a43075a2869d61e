/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-prof.c -- the engine's profile module (proto/prof.h)
 * over a fake host: the blocklist asked once online and said with each
 * LID's PN; a block by the LID with pn_jid, taken only once the server
 * answers, refused on an error and when offline; an account_sync
 * <blocklist> applied; a profile asked with a picture and an about-text
 * query, said once both answers are in (the picture from the cache, by
 * its id), a missing or hidden picture said so.
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
#include <uv.h>

#include "base/arena.h"
#include "proto/node.h"
#include "proto/prof.h"

#define PN	"15550000003@s.whatsapp.net"
#define LID	"100000000000003@lid"

/* What the fake host saw and the module said. */
struct fx {
	uv_loop_t	 loop;
	char		 dir[64];
	struct wa_prof	*p;
	unsigned	 next_id;
	char		 sent[8][4][WA_PROF_JID_MAX];	/* id, xmlns, jid,
					 * pn_jid (or target) of each iq */
	size_t		 nsent;
	struct wa_prof_ev last;		/* the last event (strings copied) */
	char		 ev_jid[WA_PROF_JID_MAX], about[256], pic_id[64];
	char		 bl[4][WA_PROF_JID_MAX];
	size_t		 nbl, nev;
	size_t		 pic_len;
};

static int
fake_send(void *arg, const struct wa_node *n)
{
	struct fx		*f = arg;
	const struct wa_node	*it = wa_node_child(n, "item");
	char			(*s)[WA_PROF_JID_MAX];

	assert_true(f->nsent < 8);
	s = f->sent[f->nsent++];
	memset(s, 0, sizeof(f->sent[0]));
	wa_node_str_copy(n, "id", s[0], WA_PROF_JID_MAX);
	wa_node_str_copy(n, "xmlns", s[1], WA_PROF_JID_MAX);
	if (it != NULL) {
		(void)wa_node_jid(it, "jid", s[2], WA_PROF_JID_MAX);
		(void)wa_node_jid(it, "pn_jid", s[3], WA_PROF_JID_MAX);
	} else
		(void)wa_node_jid(n, "target", s[3], WA_PROF_JID_MAX);
	return 0;
}

static void
fake_id(void *arg, char out[32])
{
	struct fx	*f = arg;

	snprintf(out, 32, "p.%u", ++f->next_id);
}

/* PN <-> LID of the one contact. */
static int
fake_alt(void *arg, const char *user, char *out, size_t len)
{
	(void)arg;
	if (strcmp(user, PN) == 0 || strcmp(user, LID) == 0) {
		snprintf(out, len, "%s", strcmp(user, PN) == 0 ? LID : PN);
		return 1;
	}
	return 0;
}

static void
on_ev(void *arg, const struct wa_prof_ev *e)
{
	struct fx	*f = arg;
	size_t		 i;

	f->nev++;
	f->last = *e;
	snprintf(f->ev_jid, sizeof(f->ev_jid), "%s", e->jid != NULL ?
	    e->jid : "");
	snprintf(f->about, sizeof(f->about), "%s", e->about != NULL ?
	    e->about : "");
	snprintf(f->pic_id, sizeof(f->pic_id), "%s", e->pic_id != NULL ?
	    e->pic_id : "");
	f->pic_len = e->pic_len;
	f->nbl = 0;
	for (i = 0; e->bl != NULL && i < e->bl->n && i < 4; i++)
		snprintf(f->bl[f->nbl++], WA_PROF_JID_MAX, "%s", e->bl->v[i]);
}

static int
setup(void **state)
{
	struct fx		*f = calloc(1, sizeof(*f));
	struct wa_prof_host	 h;

	assert_non_null(f);
	assert_int_equal(uv_loop_init(&f->loop), 0);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test-wa-prof.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	memset(&h, 0, sizeof(h));
	h.send = fake_send;
	h.iq_id = fake_id;
	h.lid_alt = fake_alt;
	h.loop = &f->loop;
	h.arg = f;
	assert_int_equal(wa_prof_new(&h, f->dir, on_ev, f, &f->p), 0);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx	*f = *state;
	char		 path[128];

	wa_prof_free(f->p);
	snprintf(path, sizeof(path), "%s/1733000001.jpg", f->dir);
	(void)unlink(path);
	(void)rmdir(f->dir);
	(void)uv_run(&f->loop, UV_RUN_NOWAIT);
	assert_int_equal(uv_loop_close(&f->loop), 0);
	free(f);
	return 0;
}

/* <iq type id=ID> for the module, with a child built by fn. */
static bool
answer(struct fx *f, const char *id, const char *type,
    void (*fn)(struct arena *, struct wa_node *))
{
	struct arena	 a;
	struct wa_node	*iq;
	bool		 took;

	arena_init(&a, 0);
	iq = wa_nb_new(&a, "iq", 2);
	wa_nb_attr(iq, "id", id);
	wa_nb_attr(iq, "type", type);
	if (fn != NULL)
		fn(&a, iq);
	took = wa_prof_stanza(f->p, iq);
	arena_release(&a);
	return took;
}

static void
list_of_lid(struct arena *a, struct wa_node *iq)
{
	struct wa_node	*l = wa_nb_kid(a, wa_nb_kids(a, iq, 1), "list", 0);
	struct wa_node	*it = wa_nb_kid(a, wa_nb_kids(a, l, 1), "item", 1);

	assert_int_equal(wa_nb_attr_jid(it, "jid", LID), 0);
}

static void
error_401(struct arena *a, struct wa_node *iq)
{
	struct wa_node	*e = wa_nb_kid(a, wa_nb_kids(a, iq, 1), "error", 1);

	wa_nb_attr(e, "code", "401");
}

static void
error_404(struct arena *a, struct wa_node *iq)
{
	struct wa_node	*e = wa_nb_kid(a, wa_nb_kids(a, iq, 1), "error", 1);

	wa_nb_attr(e, "code", "404");
}

static void
test_wa_prof__asks_the_blocklist_online__says_each_lid_with_its_pn(
    void **state)
{
	struct fx	*f = *state;

	assert_false(answer(f, "p.1", "result", list_of_lid));
	wa_prof_online(f->p);
	assert_int_equal(f->nsent, 1);
	assert_string_equal(f->sent[0][1], "blocklist");
	assert_true(answer(f, f->sent[0][0], "result", list_of_lid));
	assert_int_equal(f->last.kind, WA_PROF_EV_BLOCKLIST);
	assert_int_equal(f->nbl, 2);
	assert_string_equal(f->bl[0], LID);
	assert_string_equal(f->bl[1], PN);
	assert_true(wa_prof_blocked(f->p, PN));
	assert_int_equal(wa_prof_block(f->p, PN, true), -EALREADY);
	/* answered once: the same id again is not the module's */
	assert_false(answer(f, f->sent[0][0], "result", list_of_lid));
}

static void
test_wa_prof_block__by_the_lid_with_pn_jid__taken_when_answered(void **st)
{
	struct fx	*f = *st;

	assert_int_equal(wa_prof_block(f->p, PN, true), -ENOTCONN);
	wa_prof_online(f->p);
	assert_int_equal(wa_prof_block(f->p, PN, true), 0);
	assert_int_equal(f->nsent, 2);
	assert_string_equal(f->sent[1][2], LID);
	assert_string_equal(f->sent[1][3], PN);
	assert_false(wa_prof_blocked(f->p, PN));	/* not yet */
	assert_true(answer(f, f->sent[1][0], "result", NULL));
	assert_int_equal(f->last.kind, WA_PROF_EV_BLOCKLIST);
	assert_true(wa_prof_blocked(f->p, PN));
	/* unblocking: the LID alone; an error is said, nothing changes */
	assert_int_equal(wa_prof_block(f->p, PN, false), 0);
	assert_string_equal(f->sent[2][2], LID);
	assert_string_equal(f->sent[2][3], "");
	assert_true(answer(f, f->sent[2][0], "error", error_401));
	assert_int_equal(f->last.kind, WA_PROF_EV_REFUSED);
	assert_int_equal(f->last.err, 401);
	assert_true(wa_prof_blocked(f->p, PN));
	/* a change out when the connection goes: refused, not lost */
	assert_int_equal(wa_prof_block(f->p, PN, false), 0);
	wa_prof_offline(f->p);
	assert_int_equal(f->last.kind, WA_PROF_EV_REFUSED);
	assert_int_equal(f->last.err, -ENOTCONN);
	assert_true(wa_prof_blocked(f->p, PN));	/* not taken */
}

static void
test_wa_prof_stanza__applies_a_blocklist_notification(void **st)
{
	struct fx	*f = *st;
	struct arena	 a;
	struct wa_node	*n, *bl, *it;

	wa_prof_online(f->p);
	assert_true(answer(f, f->sent[0][0], "result", list_of_lid));
	arena_init(&a, 0);
	n = wa_nb_new(&a, "notification", 1);
	wa_nb_attr(n, "type", "account_sync");
	bl = wa_nb_kid(&a, wa_nb_kids(&a, n, 1), "blocklist", 0);
	it = wa_nb_kid(&a, wa_nb_kids(&a, bl, 1), "item", 2);
	assert_int_equal(wa_nb_attr_jid(it, "jid", LID), 0);
	wa_nb_attr(it, "action", "unblock");
	assert_true(wa_prof_stanza(f->p, n));
	arena_release(&a);
	assert_int_equal(f->last.kind, WA_PROF_EV_BLOCKLIST);
	assert_int_equal(f->nbl, 0);
	assert_false(wa_prof_blocked(f->p, PN));
}

static void
status_of_bob(struct arena *a, struct wa_node *iq)
{
	struct wa_node	*us, *l, *u, *s;

	us = wa_nb_kid(a, wa_nb_kids(a, iq, 1), "usync", 0);
	l = wa_nb_kid(a, wa_nb_kids(a, us, 1), "list", 0);
	u = wa_nb_kid(a, wa_nb_kids(a, l, 1), "user", 1);
	assert_int_equal(wa_nb_attr_jid(u, "jid", PN), 0);
	s = wa_nb_kid(a, wa_nb_kids(a, u, 1), "status", 1);
	wa_nb_attr(s, "t", "1733000000");
	wa_nb_bytes(s, "Hi, I am bob", 12);
}

static void
picture_1(struct arena *a, struct wa_node *iq)
{
	struct wa_node	*p = wa_nb_kid(a, wa_nb_kids(a, iq, 1), "picture", 3);

	wa_nb_attr(p, "id", "1733000001");
	wa_nb_attr(p, "url", "https://127.0.0.1:1/pp.jpg");
	wa_nb_attr(p, "direct_path", "/pp.jpg");
}

static void
test_wa_prof_ask__says_about_and_the_cached_picture_once_both_answer(
    void **st)
{
	struct fx	*f = *st;
	char		 path[128];
	FILE		*fp;

	assert_int_equal(wa_prof_ask(f->p, PN), -ENOTCONN);
	wa_prof_online(f->p);
	snprintf(path, sizeof(path), "%s/1733000001.jpg", f->dir);
	assert_non_null(fp = fopen(path, "wb"));
	assert_int_equal(fwrite("\xff\xd8\xff\xe0jpeg", 1, 8, fp), 8);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(wa_prof_ask(f->p, PN), 0);
	assert_int_equal(f->nsent, 3);
	assert_string_equal(f->sent[1][1], "w:profile:picture");
	assert_string_equal(f->sent[1][3], PN);
	assert_string_equal(f->sent[2][1], "usync");
	f->nev = 0;
	assert_true(answer(f, f->sent[2][0], "result", status_of_bob));
	assert_int_equal(f->nev, 0);		/* the picture is still out */
	assert_true(answer(f, f->sent[1][0], "result", picture_1));
	assert_int_equal(f->nev, 1);
	assert_int_equal(f->last.kind, WA_PROF_EV_PROFILE);
	assert_string_equal(f->ev_jid, PN);
	assert_true(f->last.about_known);
	assert_string_equal(f->about, "Hi, I am bob");
	assert_true(f->last.about_ms == 1733000000000LL);
	assert_int_equal(f->last.pic_state, WA_PROF_PIC_SHOWN);
	assert_string_equal(f->pic_id, "1733000001");
	assert_int_equal(f->pic_len, 8);
	/* asked again: hidden by privacy this time, and no about text */
	assert_int_equal(wa_prof_ask(f->p, PN), 0);
	assert_true(answer(f, f->sent[3][0], "error", error_401));
	assert_true(answer(f, f->sent[4][0], "error", error_404));
	assert_int_equal(f->last.pic_state, WA_PROF_PIC_HIDDEN);
	assert_false(f->last.about_known);
	/* a group: the picture alone */
	assert_int_equal(wa_prof_ask(f->p, "120363000000000001@g.us"), 0);
	assert_int_equal(f->nsent, 6);
	assert_true(answer(f, f->sent[5][0], "error", error_404));
	assert_int_equal(f->last.pic_state, WA_PROF_PIC_NONE);
	assert_int_equal(wa_prof_ask(f->p, "no-jid"), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_wa_prof__asks_the_blocklist_online__says_each_lid_with_its_pn, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wa_prof_block__by_the_lid_with_pn_jid__taken_when_answered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wa_prof_stanza__applies_a_blocklist_notification, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wa_prof_ask__says_about_and_the_cached_picture_once_both_answer, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
