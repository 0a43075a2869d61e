/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-profile.c -- the blocklist, picture and about-text
 * stanzas of proto/profile.h: built as protocol.md 15.5 and
 * protocol-features.md 3.9, 4.1, 4.2 say, and their answers read,
 * refusals included.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/err.h"
#include "proto/node.h"
#include "proto/profile.h"

#define PN_A	"15550000002@s.whatsapp.net"
#define PN_B	"15550000003@s.whatsapp.net"

/* <iq type id>, with room for n children. */
static struct wa_node *
iq_of(struct arena *a, const char *type, size_t n, struct wa_node **kids)
{
	struct wa_node	*iq = wa_nb_new(a, "iq", 3);

	wa_nb_attr(iq, "type", type);
	wa_nb_attr(iq, "id", "p.1");
	if (n > 0)
		*kids = wa_nb_kids(a, iq, n);
	return iq;
}

static void
item(struct arena *a, struct wa_node *slot, const char *jid,
    const char *action)
{
	struct wa_node	*it = wa_nb_kid(a, slot, "item", 2);

	assert_int_equal(wa_nb_attr_jid(it, "jid", jid), 0);
	wa_nb_attr(it, "action", action);
}

static void
test_wa_blocklist_set__keeps_each_user_once__without_its_device(void **st)
{
	struct wa_blocklist	 l;

	(void)st;
	wa_blocklist_init(&l);
	assert_int_equal(wa_blocklist_set(&l, PN_A, true), 1);
	assert_int_equal(wa_blocklist_set(&l, "15550000002:3@s.whatsapp.net",
	    true), 0);
	assert_true(wa_blocklist_has(&l, "15550000002:7@s.whatsapp.net"));
	assert_false(wa_blocklist_has(&l, PN_B));
	assert_int_equal(wa_blocklist_set(&l, PN_B, false), 0);
	assert_int_equal(wa_blocklist_set(&l, PN_A, false), 1);
	assert_int_equal(l.n, 0);
	assert_int_equal(wa_blocklist_set(&l, "", true), -EINVAL);
	wa_blocklist_release(&l);
}

static void
test_wa_prof_blocklist_parse__replaces_the_list__refuses_an_error(void **st)
{
	struct arena		 a;
	struct wa_blocklist	 l;
	struct wa_node		*iq, *k, *list, *items;

	(void)st;
	arena_init(&a, 0);
	wa_blocklist_init(&l);
	assert_int_equal(wa_blocklist_set(&l, "1@s.whatsapp.net", true), 1);
	iq = iq_of(&a, "result", 1, &k);
	list = wa_nb_kid(&a, &k[0], "list", 1);
	wa_nb_attr(list, "dhash", "x");
	items = wa_nb_kids(&a, list, 3);
	item(&a, &items[0], PN_A, NULL);
	item(&a, &items[1], "15550000003:2@s.whatsapp.net", NULL);
	(void)wa_nb_kid(&a, &items[2], "item", 0);	/* no jid: skipped */
	assert_int_equal(wa_prof_blocklist_parse(iq, &l), 2);
	assert_true(wa_blocklist_has(&l, PN_A));
	assert_true(wa_blocklist_has(&l, PN_B));
	assert_false(wa_blocklist_has(&l, "1@s.whatsapp.net"));
	iq = iq_of(&a, "error", 0, NULL);
	assert_int_equal(wa_prof_blocklist_parse(iq, &l), WC_EPROTO);
	assert_int_equal(l.n, 2);
	wa_blocklist_release(&l);
	arena_release(&a);
}

static void
test_wa_prof_blocklist_change__applies_each_item__action_of_the_list(
    void **st)
{
	struct arena		 a;
	struct wa_blocklist	 l;
	struct wa_node		*bl, *items;

	(void)st;
	arena_init(&a, 0);
	wa_blocklist_init(&l);
	assert_int_equal(wa_blocklist_set(&l, PN_B, true), 1);
	bl = wa_nb_new(&a, "blocklist", 1);
	wa_nb_attr(bl, "action", "block");
	items = wa_nb_kids(&a, bl, 3);
	item(&a, &items[0], PN_A, NULL);		/* the list's: block */
	item(&a, &items[1], PN_B, "unblock");
	item(&a, &items[2], "9@s.whatsapp.net", "mute");	/* unknown */
	assert_int_equal(wa_prof_blocklist_change(bl, &l), 2);
	assert_true(wa_blocklist_has(&l, PN_A));
	assert_false(wa_blocklist_has(&l, PN_B));
	assert_false(wa_blocklist_has(&l, "9@s.whatsapp.net"));
	assert_int_equal(wa_prof_blocklist_change(wa_nb_new(&a, "list", 0),
	    &l), WC_EPROTO);
	wa_blocklist_release(&l);
	arena_release(&a);
}

static void
test_wa_prof_blocklist_set__names_the_action_and_the_jid(void **st)
{
	struct arena	 a;
	struct wa_node	*n;
	const struct wa_node *it;
	char		 jid[64];

	(void)st;
	arena_init(&a, 0);
	assert_int_equal(wa_prof_blocklist_set(&a, "b.1", PN_A, NULL, true,
	    &n), 0);
	assert_true(wa_node_str_is(n, "xmlns", "blocklist"));
	assert_true(wa_node_str_is(n, "type", "set"));
	it = wa_node_child(n, "item");
	assert_non_null(it);
	assert_true(wa_node_str_is(it, "action", "block"));
	assert_true(wa_node_jid(it, "jid", jid, sizeof(jid)));
	assert_string_equal(jid, PN_A);
	assert_null(wa_node_str(it, "pn_jid").p);
	assert_int_equal(wa_prof_blocklist_set(&a, "b.2", "100000000000002@lid",
	    PN_A, true, &n), 0);
	it = wa_node_child(n, "item");
	assert_true(wa_node_jid(it, "jid", jid, sizeof(jid)));
	assert_string_equal(jid, "100000000000002@lid");
	assert_true(wa_node_jid(it, "pn_jid", jid, sizeof(jid)));
	assert_string_equal(jid, PN_A);
	assert_int_equal(wa_prof_blocklist_set(&a, "b.2", PN_A, NULL, false,
	    &n), 0);
	assert_true(wa_node_str_is(wa_node_child(n, "item"), "action",
	    "unblock"));
	n = wa_prof_blocklist_get(&a, "b.3");
	assert_true(wa_node_str_is(n, "type", "get"));
	assert_null(wa_node_child(n, "item"));
	arena_release(&a);
}

static void
test_wa_prof_picture_get__asks_the_preview_url_of_the_target(void **st)
{
	struct arena	 a;
	struct wa_node	*n;
	const struct wa_node *p;
	char		 jid[64];

	(void)st;
	arena_init(&a, 0);
	assert_int_equal(wa_prof_picture_get(&a, "p.1", PN_A, true, &n), 0);
	assert_true(wa_node_str_is(n, "xmlns", "w:profile:picture"));
	assert_true(wa_node_jid(n, "target", jid, sizeof(jid)));
	assert_string_equal(jid, PN_A);
	p = wa_node_child(n, "picture");
	assert_true(wa_node_str_is(p, "type", "preview"));
	assert_true(wa_node_str_is(p, "query", "url"));
	assert_int_equal(wa_prof_picture_get(&a, "p.2", "", true, &n),
	    -EINVAL);
	arena_release(&a);
}

/* <iq type="result"><picture .../></iq> with the attributes kv[0..n). */
static struct wa_node *
pic_answer(struct arena *a, const char *const *kv, size_t n)
{
	struct wa_node	*k, *iq = iq_of(a, "result", 1, &k), *p;
	size_t		 i;

	p = wa_nb_kid(a, &k[0], "picture", n / 2);
	for (i = 0; i + 1 < n; i += 2)
		wa_nb_attr(p, kv[i], kv[i + 1]);
	return iq;
}

static void
test_wa_prof_picture_parse__takes_id_and_url__says_none_and_hidden(
    void **st)
{
	static const char *const ok[] = { "id", "1733300000", "url",
	    "https://mmg.example/pp.jpg?x=1", "direct_path", "/v/pp.jpg",
	    "type", "preview" };
	static const char *const none[] = { "status", "204" };
	static const char *const bad[] = { "id", "1", "url", "file:///x" };
	struct arena		 a;
	struct wa_prof_pic	 pic;
	struct wa_node		*iq, *k, *e;

	(void)st;
	arena_init(&a, 0);
	assert_int_equal(wa_prof_picture_parse(pic_answer(&a, ok, 8), &pic),
	    0);
	assert_string_equal(pic.id, "1733300000");
	assert_string_equal(pic.url, "https://mmg.example/pp.jpg?x=1");
	assert_string_equal(pic.direct_path, "/v/pp.jpg");
	assert_int_equal(wa_prof_picture_parse(pic_answer(&a, none, 2), &pic),
	    -ENOENT);
	assert_int_equal(wa_prof_picture_parse(pic_answer(&a, bad, 4), &pic),
	    WC_EPROTO);
	iq = iq_of(&a, "error", 1, &k);
	e = wa_nb_kid(&a, &k[0], "error", 1);
	wa_nb_attr(e, "code", "404");
	assert_int_equal(wa_prof_picture_parse(iq, &pic), -ENOENT);
	iq = iq_of(&a, "error", 1, &k);
	e = wa_nb_kid(&a, &k[0], "error", 1);
	wa_nb_attr(e, "code", "401");
	assert_int_equal(wa_prof_picture_parse(iq, &pic), -EACCES);
	assert_int_equal(wa_prof_picture_parse(iq_of(&a, "result", 0, NULL),
	    &pic), WC_EPROTO);
	assert_true(wa_prof_pic_id_ok("1733300000"));
	assert_false(wa_prof_pic_id_ok("../x"));
	assert_false(wa_prof_pic_id_ok(""));
	arena_release(&a);
}

/* A usync answer naming jid with <status [code]>text</status>. */
static struct wa_node *
status_answer(struct arena *a, const char *jid, const char *text,
    const char *code)
{
	struct wa_node	*k, *iq = iq_of(a, "result", 1, &k), *us, *list, *u;
	struct wa_node	*s;

	us = wa_nb_kid(a, &k[0], "usync", 0);
	list = wa_nb_kid(a, wa_nb_kids(a, us, 1), "list", 0);
	u = wa_nb_kid(a, wa_nb_kids(a, list, 1), "user", 1);
	assert_int_equal(wa_nb_attr_jid(u, "jid", jid), 0);
	s = wa_nb_kid(a, wa_nb_kids(a, u, 1), "status", 2);
	wa_nb_attr(s, "t", "1733000000");
	wa_nb_attr(s, "code", code);
	if (text != NULL)
		wa_nb_bytes(s, text, strlen(text));
	return iq;
}

static void
test_wa_prof_status_parse__takes_the_text__hidden_by_code_401(void **st)
{
	struct arena		 a;
	struct wa_prof_status	 s;
	struct wa_node		*n;
	const struct wa_node	*q;

	(void)st;
	arena_init(&a, 0);
	assert_int_equal(wa_prof_status_get(&a, "u.1", PN_A, &n), 0);
	q = wa_node_child(wa_node_child(n, "usync"), "query");
	assert_non_null(wa_node_child(q, "status"));
	assert_int_equal(wa_prof_status_parse(status_answer(&a, PN_A,
	    "Hallo, ich bin da", NULL), PN_A, &s), 0);
	assert_true(s.known);
	assert_string_equal(s.text, "Hallo, ich bin da");
	assert_true(s.t == 1733000000);
	assert_int_equal(wa_prof_status_parse(status_answer(&a, PN_A, "",
	    "401"), PN_A, &s), 0);
	assert_false(s.known);
	assert_int_equal(wa_prof_status_parse(status_answer(&a, PN_B, "x",
	    NULL), PN_A, &s), WC_EPROTO);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_blocklist_set__keeps_each_user_once__without_its_device),
		cmocka_unit_test(test_wa_prof_blocklist_parse__replaces_the_list__refuses_an_error),
		cmocka_unit_test(test_wa_prof_blocklist_change__applies_each_item__action_of_the_list),
		cmocka_unit_test(test_wa_prof_blocklist_set__names_the_action_and_the_jid),
		cmocka_unit_test(test_wa_prof_picture_get__asks_the_preview_url_of_the_target),
		cmocka_unit_test(test_wa_prof_picture_parse__takes_id_and_url__says_none_and_hidden),
		cmocka_unit_test(test_wa_prof_status_parse__takes_the_text__hidden_by_code_401),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
