/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/profile.c -- what the server answers of profiles and the
 * blocklist (issue 20): the blocklist kept per account, given to any of
 * its devices (<list><item jid/></list>, protocol.md 15.5) and changed by
 * <item action jid/>, the change then sent to the account's other
 * connected devices as <notification type="account_sync"><blocklist>
 * (protocol-features.md 3.9); every account's preview picture, a JPEG
 * made at its first query (64 by 64: red on the left half, blue on the
 * right, no chroma subsampling, so that the halves stay pure) and
 * served from the media host under a fresh direct path, its id the
 * blob's number (protocol-features.md 4.1); and usync's <status/>: an
 * about text made of the account's name, "Hi, I am NAME" (4.2).  Loop
 * thread only.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jpeglib.h>
#include <json-c/json.h>

#include "base/buf.h"
#include "tests/sim/nodes.h"
#include "tests/sim/session.h"
#include "tests/sim/sim.h"

#define PIC_SIDE	64
#define ABOUT_T		1733000000	/* when the about texts were set */

/* The account n's JID attribute key names, or NULL. */
static struct sim_account *
account_of(struct sim_conn *c, const struct wa_node *n, const char *key,
    char *user, size_t ulen, bool *lid)
{
	if (!sim_jid_user(n, key, user, ulen, lid))
		return NULL;
	return *lid ? sim_account_by_lid(c->s, user) :
	    sim_account_by_pn(c->s, user);
}

int
sim_prof_blocklist_get(struct sim_conn *c, const struct wa_node *n)
{
	struct sim_account	*acct = c->acct;
	struct arena		 a;
	struct wa_node		*r, *list, *it;
	size_t			 i;

	arena_init(&a, 0);
	r = sim_iq_answer(&a, n, "result");
	list = sn_child(&a, r, "list");
	sn_attr(&a, list, "dhash", "sim");
	for (i = 0; i < acct->nblocked; i++) {
		it = sn_child(&a, list, "item");
		sn_attr(&a, it, "jid", acct->blocked[i]);
	}
	sim_conn_log(c, "blocklist: %zu blocked", acct->nblocked);
	sim_iq_send_free(c, &a, r);
	return 1;
}

/* Block (true) or unblock jid in acct's list: false when it is full. */
static bool
keep(struct sim_account *acct, const char *jid, bool block)
{
	size_t	 i;

	for (i = 0; i < acct->nblocked; i++)
		if (strcmp(acct->blocked[i], jid) == 0)
			break;
	if (!block) {
		if (i < acct->nblocked) {
			memmove(acct->blocked[i], acct->blocked[i + 1],
			    (acct->nblocked - i - 1) *
			    sizeof(acct->blocked[0]));
			acct->nblocked--;
		}
		return true;
	}
	if (i < acct->nblocked)
		return true;
	if (acct->nblocked >= SIM_BLOCKED_MAX)
		return false;
	snprintf(acct->blocked[acct->nblocked++], sizeof(acct->blocked[0]),
	    "%s", jid);
	return true;
}

/* The change to the account's devices but c's. */
static void
notify_others(struct sim_conn *c, const char *jid, bool block)
{
	struct sim_conn	*o;
	struct arena	 a;
	struct wa_node	*n, *bl, *it;
	char		 id[32], t[24];

	for (o = c->s->conns; o != NULL; o = o->next) {
		if (o == c || o->acct != c->acct || !o->authed ||
		    o->st != SIM_C_READY)
			continue;
		arena_init(&a, 0);
		n = sn_new(&a, "notification");
		sim_conn_iq_id(o, id, sizeof(id));
		sn_attr_jid(&a, n, "from", "", "s.whatsapp.net", 0);
		sn_attr(&a, n, "type", "account_sync");
		sn_attr(&a, n, "id", id);
		snprintf(t, sizeof(t), "%lld", (long long)time(NULL));
		sn_attr(&a, n, "t", t);
		bl = sn_child(&a, n, "blocklist");
		it = sn_child(&a, bl, "item");
		sn_attr(&a, it, "jid", jid);
		sn_attr(&a, it, "action", block ? "block" : "unblock");
		if (sim_conn_send_node(o, n) == 0)
			sim_conn_log(o, "sent blocklist notification");
		arena_release(&a);
	}
}

int
sim_prof_blocklist_set(struct sim_conn *c, const struct wa_node *n)
{
	const struct wa_node	*it = sn_find(n, "item");
	struct wa_str		 act = sn_get(it, "action");
	char			 user[SIM_PN_MAX], jid[SIM_PN_MAX + 24];
	char			 pn[SIM_PN_MAX] = "";
	bool			 lid, pn_lid, block = wa_str_eqc(act, "block");

	if (!sim_jid_user(it, "jid", user, sizeof(user), &lid) ||
	    (!block && !wa_str_eqc(act, "unblock"))) {
		sim_iq_error(c, n, 400, "bad-request");
		return 1;
	}
	snprintf(jid, sizeof(jid), "%s@%s", user, lid ? "lid" :
	    "s.whatsapp.net");
	if (!keep(c->acct, jid, block)) {
		sim_iq_error(c, n, 406, "not-acceptable");
		return 1;
	}
	/* a LID comes with its PN when blocking (protocol.md 15.5) */
	if (!sim_jid_user(it, "pn_jid", pn, sizeof(pn), &pn_lid) || pn_lid)
		pn[0] = '\0';
	sim_conn_log(c, "blocklist: %s %s%s%s (%zu blocked)", block ?
	    "blocked" : "unblocked", jid, pn[0] != '\0' ? " pn_jid " : "", pn,
	    c->acct->nblocked);
	sim_iq_result(c, n);
	notify_others(c, jid, block);
	return 1;
}

/* The two halves' colours: the first picture red | blue, a changed one
 * green | yellow. */
static const unsigned char HALVES[2][2][3] = {
	{ { 255, 0, 0 }, { 0, 0, 255 } },
	{ { 0, 255, 0 }, { 255, 255, 0 } },
};

/* The picture's JPEG (halves v: 0 or 1) into out: false when libjpeg
 * failed. */
static bool
make_jpeg(struct buf *out, int v)
{
	struct jpeg_compress_struct	 cj;
	struct jpeg_error_mgr		 jerr;
	unsigned char			*mem = NULL, row[PIC_SIDE * 3];
	unsigned long			 len = 0;
	JSAMPROW			 rp = row;
	int				 x;

	for (x = 0; x < PIC_SIDE; x++)
		memcpy(row + 3 * x, HALVES[v][x < PIC_SIDE / 2 ? 0 : 1], 3);
	cj.err = jpeg_std_error(&jerr);
	jpeg_create_compress(&cj);
	jpeg_mem_dest(&cj, &mem, &len);
	cj.image_width = cj.image_height = PIC_SIDE;
	cj.input_components = 3;
	cj.in_color_space = JCS_RGB;
	jpeg_set_defaults(&cj);
	jpeg_set_quality(&cj, 95, TRUE);
	cj.comp_info[0].h_samp_factor = cj.comp_info[0].v_samp_factor = 1;
	jpeg_start_compress(&cj, TRUE);
	while (cj.next_scanline < cj.image_height)
		(void)jpeg_write_scanlines(&cj, &rp, 1);
	jpeg_finish_compress(&cj);
	jpeg_destroy_compress(&cj);
	if (mem != NULL && len > 0)
		buf_append(out, mem, len);
	free(mem);
	return out->len > 0;
}

/* acct's picture made anew (halves v), under a new blob and id: false
 * when libjpeg failed. */
static bool
new_picture(struct sim *s, struct sim_account *acct, int v)
{
	struct buf	 jpg = BUF_INIT;

	if (!make_jpeg(&jpg, v)) {
		buf_release(&jpg);
		return false;
	}
	acct->pic = sim_media_put(s, "picture", &jpg);
	snprintf(acct->pic_id, sizeof(acct->pic_id), "%llu",
	    (unsigned long long)(1733000000u + acct->pic->seq));
	return true;
}

int
sim_prof_picture_set(struct sim *s, struct sim_account *acct)
{
	struct sim_conn	*c;
	struct arena	 a;
	struct wa_node	*n, *set;
	char		 id[32], t[24], jid[SIM_PN_MAX + 20];
	int		 sent = 0;

	if (!new_picture(s, acct, 1))
		return -1;
	snprintf(jid, sizeof(jid), "%s@s.whatsapp.net", acct->pn);
	for (c = s->conns; c != NULL; c = c->next) {
		if (!c->authed || c->st != SIM_C_READY || c->acct == acct)
			continue;
		arena_init(&a, 0);
		n = sn_new(&a, "notification");
		sim_conn_iq_id(c, id, sizeof(id));
		sn_attr(&a, n, "from", jid);
		sn_attr(&a, n, "type", "picture");
		sn_attr(&a, n, "id", id);
		snprintf(t, sizeof(t), "%lld", (long long)time(NULL));
		sn_attr(&a, n, "t", t);
		set = sn_child(&a, n, "set");
		sn_attr(&a, set, "jid", jid);
		sn_attr(&a, set, "id", acct->pic_id);
		if (sim_conn_send_node(c, n) == 0)
			sent++;
		arena_release(&a);
	}
	sim_log(s, "picture of %s changed: id %s, %d notified", acct->pn,
	    acct->pic_id, sent);
	return sent;
}

int
sim_prof_picture(struct sim_conn *c, const struct wa_node *n)
{
	struct sim_account	*acct;
	struct arena		 a;
	struct wa_node		*r, *p;
	char			 user[SIM_PN_MAX], url[1024], host[300];
	bool			 lid;

	if ((acct = account_of(c, n, "target", user, sizeof(user), &lid)) ==
	    NULL) {
		sim_conn_log(c, "picture of %s: none (404)", user);
		sim_iq_error(c, n, 404, "item-not-found");
		return 1;
	}
	if (acct->pic == NULL && !new_picture(c->s, acct, 0)) {
		sim_iq_error(c, n, 500, "internal-server-error");
		return 1;
	}
	sim_media_hostname(c->s, host, sizeof(host));
	snprintf(url, sizeof(url), "https://%s%s", host, acct->pic->path);
	arena_init(&a, 0);
	r = sim_iq_answer(&a, n, "result");
	p = sn_child(&a, r, "picture");
	sn_attr(&a, p, "id", acct->pic_id);
	sn_attr(&a, p, "type", "preview");
	sn_attr(&a, p, "url", url);
	sn_attr(&a, p, "direct_path", acct->pic->path);
	sim_conn_log(c, "picture of %s: id %s", acct->pn, acct->pic_id);
	sim_iq_send_free(c, &a, r);
	return 1;
}

void
sim_prof_usync_status(struct arena *a, struct wa_node *u,
    const struct sim_account *acct)
{
	struct wa_node	*st = sn_child(a, u, "status");
	char		 text[SIM_NAME_MAX + 16], t[24];

	snprintf(t, sizeof(t), "%d", ABOUT_T);
	sn_attr(a, st, "t", t);
	snprintf(text, sizeof(text), "Hi, I am %s", acct->name[0] != '\0' ?
	    acct->name : acct->pn);
	sn_bytes(a, st, text, strlen(text));
}

/* A number member key of in into *out: false when it is there and no
 * number. */
static bool
num_of(struct json_object *in, const char *key, int64_t *out)
{
	struct json_object	*v;

	if (in == NULL || !json_object_object_get_ex(in, key, &v))
		return true;
	if (!json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

static bool
bool_of(struct json_object *in, const char *key)
{
	struct json_object	*v;

	return in != NULL && json_object_object_get_ex(in, key, &v) &&
	    json_object_get_boolean(v);
}

int
sim_prof_admin(struct sim *s, const char *what, struct json_object *in,
    struct buf *out)
{
	const char		*pn = sim_json_str(in, "pn");
	struct sim_account	*acct = pn != NULL ? sim_account_by_pn(s, pn) :
				    NULL;
	struct json_object	*o;
	int64_t			 t = 0;
	int			 n;

	if (acct == NULL)
		return sim_json_error(out, 404, "no such account");
	if (strcmp(what, "presence") == 0) {
		if (!num_of(in, "last_seen", &t))
			return sim_json_error(out, 400, "last_seen: a number");
		sim_route_presence_set(s, acct, bool_of(in, "available"), t,
		    bool_of(in, "hidden"));
		return sim_json_reply(out, json_object_new_object(), 200);
	}
	if (strcmp(what, "picture") != 0)
		return sim_json_error(out, 404, "no such route");
	if ((n = sim_prof_picture_set(s, acct)) < 0)
		return sim_json_error(out, 500, "no picture made");
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(acct->pic_id));
	json_object_object_add(o, "notified", json_object_new_int(n));
	return sim_json_reply(out, o, 200);
}
