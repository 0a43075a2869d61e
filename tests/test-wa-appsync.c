/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-appsync.c -- app state sync in the engine
 * (proto/appsync.c) with a fake host (stanzas and peer messages recorded,
 * downloads served from memory) and a fake store (keys, states, MAC map
 * and committed actions in memory), and a "phone" here that authors real
 * patches and snapshots with proto/appstate.h's encoder: what goes on the
 * wire (one <sync> iq, snapshot asked without a version, version=N
 * later), what is committed, the recovery from a bad MAC (reset, snapshot,
 * given up after WA_APPSYNC_MAX_RESETS), a missing key (parked, one key
 * request per key and day, resumed by the share), server_sync, the
 * error codes, has_more_patches and its bound, a connection lost
 * mid-download.  Also the key share and request of proto/askey.h.  JIDs
 * and names are made up.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <uv.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/appstate.h"
#include "proto/appstate.pb-c.h"
#include "proto/appsync.h"
#include "proto/askey.h"
#include "proto/bin.h"
#include "proto/crypto.h"
#include "proto/media.h"
#include "proto/node.h"

#define ALICE	"4915550001@s.whatsapp.net"
#define BOB	"4915550002@s.whatsapp.net"

static const uint8_t	 KEY_ID[] = { 0, 0, 0, 0, 0x4d, 0x21 };
static const uint8_t	 KEY_ID2[] = { 0, 0, 0, 0, 0x4d, 0x22 };
static const uint8_t	 KEY_DATA[32] = { 7, 7, 7, 7, 1, 2, 3, 4 };
static const uint8_t	 KEY_DATA2[32] = { 9, 9, 9, 9, 1, 2, 3, 4 };

/* ---- a MAC map: the fake store's and the phone's ---- */

#define MAP_MAX	64

struct macmap {
	struct {
		int	 coll;
		uint8_t	 index[WA_AS_MAC_LEN];
		uint8_t	 value[WA_AS_MAC_LEN];
	}		 e[MAP_MAX];
	size_t		 n;
};

static int
map_get(const struct macmap *m, int coll, const uint8_t *index,
    uint8_t *value)
{
	size_t	 i;

	for (i = 0; i < m->n; i++)
		if (m->e[i].coll == coll && memcmp(m->e[i].index, index,
		    WA_AS_MAC_LEN) == 0) {
			memcpy(value, m->e[i].value, WA_AS_MAC_LEN);
			return 1;
		}
	return 0;
}

static void
map_del(struct macmap *m, int coll, const uint8_t *index)
{
	size_t	 i;

	for (i = 0; i < m->n; i++)
		if (m->e[i].coll == coll && memcmp(m->e[i].index, index,
		    WA_AS_MAC_LEN) == 0) {
			m->e[i] = m->e[--m->n];
			return;
		}
}

static void
map_set(struct macmap *m, int coll, const uint8_t *index,
    const uint8_t *value)
{
	map_del(m, coll, index);
	assert_true(m->n < MAP_MAX);
	m->e[m->n].coll = coll;
	memcpy(m->e[m->n].index, index, WA_AS_MAC_LEN);
	memcpy(m->e[m->n].value, value, WA_AS_MAC_LEN);
	m->n++;
}

static void
map_clear(struct macmap *m, int coll)
{
	size_t	 i = 0;

	while (i < m->n)
		if (m->e[i].coll == coll)
			m->e[i] = m->e[--m->n];
		else
			i++;
}

/* ---- the fake store ---- */

struct fstore {
	bool		 has_key[2];		/* KEY_ID, KEY_ID2 */
	struct wa_as_state st[WA_AS_NCOLL];
	struct macmap	 map;
	int		 commits, resets;
	int		 fail;			/* commit's error, once */
	char		 names[8][96];		/* "jid=full name" */
	size_t		 nnames;
	char		 muted[8][96];		/* "jid" */
	size_t		 nmuted;
};

static int
fs_key_any(void *arg)
{
	struct fstore	*f = arg;

	return f->has_key[0] || f->has_key[1];
}

static int
fs_key_get(void *arg, const uint8_t *id, size_t len, uint8_t *data,
    size_t *dlen)
{
	struct fstore	*f = arg;

	if (len == sizeof(KEY_ID) && memcmp(id, KEY_ID, len) == 0 &&
	    f->has_key[0]) {
		memcpy(data, KEY_DATA, 32);
		*dlen = 32;
		return 1;
	}
	if (len == sizeof(KEY_ID2) && memcmp(id, KEY_ID2, len) == 0 &&
	    f->has_key[1]) {
		memcpy(data, KEY_DATA2, 32);
		*dlen = 32;
		return 1;
	}
	return 0;
}

static int
fs_state_get(void *arg, const char *name, struct wa_as_state *out)
{
	struct fstore	*f = arg;
	int		 c = wa_as_coll_find(name);

	assert_true(c >= 0);
	*out = f->st[c];
	return f->st[c].version != 0;
}

static int
fs_state_reset(void *arg, const char *name)
{
	struct fstore	*f = arg;
	int		 c = wa_as_coll_find(name);

	assert_true(c >= 0);
	memset(&f->st[c], 0, sizeof(f->st[c]));
	map_clear(&f->map, c);
	f->resets++;
	return 0;
}

static int
fs_mac_get(void *arg, const char *name, const uint8_t *index, uint8_t *value)
{
	struct fstore	*f = arg;

	return map_get(&f->map, wa_as_coll_find(name), index, value);
}

static int
fs_commit(void *arg, const struct wa_appsync_commit *c)
{
	struct fstore	*f = arg;
	size_t		 i;
	int		 rc;

	if (f->fail != 0) {
		rc = f->fail;
		f->fail = 0;
		return rc;
	}
	if (!c->snapshot && c->base_version != f->st[c->coll].version)
		return -ESTALE;
	if (c->snapshot)
		map_clear(&f->map, (int)c->coll);
	for (i = 0; i < c->out->n_changes; i++)
		if (c->out->changes[i].set)
			map_set(&f->map, (int)c->coll,
			    c->out->changes[i].index_mac,
			    c->out->changes[i].value_mac);
		else
			map_del(&f->map, (int)c->coll,
			    c->out->changes[i].index_mac);
	f->st[c->coll] = *c->state;
	for (i = 0; i < c->out->n_mutations; i++) {
		const struct wa_as_mutation *m = &c->out->mutations[i];

		if (m->err != 0 || m->op != WA_AS_SET)
			continue;
		if (m->action.kind == WA_AS_ACT_CONTACT && f->nnames < 8)
			snprintf(f->names[f->nnames++], 96, "%s=%s",
			    m->action.chat, m->action.full_name);
		if (m->action.kind == WA_AS_ACT_MUTE && m->action.flag &&
		    f->nmuted < 8)
			snprintf(f->muted[f->nmuted++], 96, "%s",
			    m->action.chat);
	}
	f->commits++;
	return 0;
}

/* ---- the fake host ---- */

#define SENT_MAX	64
#define COLLS_MAX	8

struct sent {
	char		 id[32];
	bool		 media_conn;		/* else a sync iq */
	size_t		 n;
	char		 name[COLLS_MAX][32];
	char		 snap[COLLS_MAX][8];	/* return_snapshot */
	char		 version[COLLS_MAX][24];	/* "" when absent */
};

struct fget {
	bool		 live;
	char		 url[1024];
	size_t		 max_body;
	wa_http_done_fn	 done;
	void		*arg;
};

struct fixture {
	uv_loop_t	 loop;
	struct fstore	 fs;
	struct wa_appsync_store_ops ops;
	struct wa_appsync_host host;
	struct wa_appsync *s;
	struct sent	 sent[SENT_MAX];
	size_t		 nsent;
	int		 idn;
	struct buf	 peer[8];		/* peer messages sent */
	size_t		 npeer;
	int64_t		 now_ms;
	struct fget	 get;
	int		 gets, cancels;
	struct wa_appsync_ev ev[16];
	size_t		 nev;
	/* the phone */
	struct wa_as_state pst[WA_AS_NCOLL];
	struct macmap	 pmap;
	struct wa_as_keys keys, keys2;
	/* the blob the media host serves */
	struct buf	 blob;
	uint8_t		 media_key[32];
};

static struct fixture	*FX;	/* for the fake HTTP get */

static int
h_send(void *arg, const struct wa_node *n)
{
	struct fixture		*f = arg;
	struct sent		*s;
	const struct wa_node	*sync, *k;
	size_t			 i;

	assert_true(f->nsent < SENT_MAX);
	s = &f->sent[f->nsent++];
	memset(s, 0, sizeof(*s));
	assert_true(wa_str_eqc(n->tag, "iq"));
	wa_node_str_copy(n, "id", s->id, sizeof(s->id));
	assert_true(wa_node_str_is(n, "type", "set"));
	if (wa_node_child(n, "media_conn") != NULL) {
		assert_true(wa_node_str_is(n, "xmlns", "w:m"));
		s->media_conn = true;
		return 0;
	}
	assert_true(wa_node_str_is(n, "xmlns", "w:sync:app:state"));
	sync = wa_node_child(n, "sync");
	assert_non_null(sync);
	for (i = 0; i < wa_node_nkids(sync); i++) {
		k = wa_node_kid(sync, i);
		assert_true(wa_str_eqc(k->tag, "collection"));
		assert_true(s->n < COLLS_MAX);
		wa_node_str_copy(k, "name", s->name[s->n], 32);
		wa_node_str_copy(k, "return_snapshot", s->snap[s->n], 8);
		wa_node_str_copy(k, "version", s->version[s->n], 24);
		s->n++;
	}
	return 0;
}

static void
h_iq_id(void *arg, char out[32])
{
	struct fixture	*f = arg;

	snprintf(out, 32, "as.%d", ++f->idn);
}

static int
h_send_peer(void *arg, const uint8_t *msg, size_t len)
{
	struct fixture	*f = arg;

	assert_true(f->npeer < 8);
	buf_append(&f->peer[f->npeer++], msg, len);
	return 0;
}

static int64_t
h_now(void *arg)
{
	return ((struct fixture *)arg)->now_ms;
}

static int
h_get(struct uv_loop_s *loop, const struct wa_http_req *r,
    wa_http_done_fn done, void *arg, struct wa_http_get **out)
{
	(void)loop;
	assert_false(FX->get.live);
	FX->get.live = true;
	snprintf(FX->get.url, sizeof(FX->get.url), "%s", r->url);
	FX->get.max_body = r->max_body;
	FX->get.done = done;
	FX->get.arg = arg;
	FX->gets++;
	*out = (struct wa_http_get *)&FX->get;
	return 0;
}

static void
h_cancel(struct wa_http_get *g)
{
	assert_ptr_equal(g, &FX->get);
	FX->get.live = false;
	FX->cancels++;
}

static void
on_ev(void *arg, const struct wa_appsync_ev *e)
{
	struct fixture	*f = arg;

	assert_true(f->nev < 16);
	f->ev[f->nev++] = *e;
}

static int
setup(void **state)
{
	struct fixture	*f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(wa_crypto_init(), 0);
	assert_int_equal(uv_loop_init(&f->loop), 0);
	f->ops.key_any = fs_key_any;
	f->ops.key_get = fs_key_get;
	f->ops.state_get = fs_state_get;
	f->ops.state_reset = fs_state_reset;
	f->ops.mac_get = fs_mac_get;
	f->ops.commit = fs_commit;
	f->ops.arg = &f->fs;
	f->host.send = h_send;
	f->host.iq_id = h_iq_id;
	f->host.send_peer = h_send_peer;
	f->host.now_ms = h_now;
	f->host.http_get = h_get;
	f->host.http_cancel = h_cancel;
	f->host.loop = &f->loop;
	f->host.arg = f;
	f->now_ms = 1700000000000LL;
	f->fs.has_key[0] = true;
	memset(f->media_key, 0x5a, sizeof(f->media_key));
	assert_int_equal(wa_as_keys_expand(KEY_DATA, 32, &f->keys), 0);
	assert_int_equal(wa_as_keys_expand(KEY_DATA2, 32, &f->keys2), 0);
	assert_int_equal(wa_appsync_new(&f->host, &f->ops, on_ev, f, &f->s),
	    0);
	FX = f;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;
	size_t		 i;

	wa_appsync_free(f->s);
	for (i = 0; i < 8; i++)
		buf_release(&f->peer[i]);
	buf_release(&f->blob);
	assert_int_equal(uv_loop_close(&f->loop), 0);
	free(f);
	FX = NULL;
	return 0;
}

/* ---- the phone: patches and snapshots ---- */

static int
phone_mac(void *arg, enum wa_as_coll c, const uint8_t *index, uint8_t *value)
{
	return map_get(&((struct fixture *)arg)->pmap, (int)c, index, value);
}

/* A contact action for jid named name. */
static struct wa_as_action
contact(const char *jid, const char *name)
{
	struct wa_as_action	 a;

	memset(&a, 0, sizeof(a));
	a.kind = WA_AS_ACT_CONTACT;
	a.chat = (char *)(uintptr_t)jid;
	a.full_name = (char *)(uintptr_t)name;
	return a;
}

static struct wa_as_action
mute(const char *jid)
{
	struct wa_as_action	 a;

	memset(&a, 0, sizeof(a));
	a.kind = WA_AS_ACT_MUTE;
	a.chat = (char *)(uintptr_t)jid;
	a.flag = true;
	a.mute_end_ms = -1;
	return a;
}

/*
 * The phone authors a patch of acts[0..n) on collection c with key 1 (or
 * 2), its own state moved on; the patch bytes appended to *out.  bad: its
 * patch MAC is corrupted after the fact.
 */
static void
phone_patch(struct fixture *f, enum wa_as_coll c,
    const struct wa_as_action *acts, size_t n, bool key2, bool bad,
    struct buf *out)
{
	struct wa_as_send	 m[4];
	struct wa_as_change	*ch;
	struct wa_as_state	 ns;
	struct arena		 a;
	size_t			 i, nch;
	size_t			 off = out->len;

	assert_true(n <= 4);
	for (i = 0; i < n; i++) {
		memset(&m[i], 0, sizeof(m[i]));
		m[i].op = WA_AS_SET;
		m[i].action = &acts[i];
		memset(m[i].iv, (int)(0x30 + i + f->pst[c].version), 16);
	}
	arena_init(&a, 4096);
	assert_int_equal(wa_as_patch_encode(&a, key2 ? &f->keys2 : &f->keys,
	    key2 ? KEY_ID2 : KEY_ID, sizeof(KEY_ID), c, &f->pst[c], m, n,
	    f->now_ms, phone_mac, f, out, &ns, &ch, &nch), 0);
	for (i = 0; i < nch; i++)
		if (ch[i].set)
			map_set(&f->pmap, (int)c, ch[i].index_mac,
			    ch[i].value_mac);
		else
			map_del(&f->pmap, (int)c, ch[i].index_mac);
	f->pst[c] = ns;
	arena_release(&a);
	if (bad) {
		struct arena	 b;
		Waas__SyncdPatch *p;

		arena_init(&b, 1024);
		p = waas__syncd_patch__unpack(NULL, out->len - off,
		    out->p + off);
		assert_non_null(p);
		assert_true(p->has_patchmac && p->patchmac.len == 32);
		p->patchmac.data[0] ^= 1;
		out->len = off;
		buf_reserve(out, waas__syncd_patch__get_packed_size(p));
		out->len += waas__syncd_patch__pack(p, out->p + off);
		waas__syncd_patch__free_unpacked(p, NULL);
		arena_release(&b);
	}
}

/*
 * The phone's snapshot of acts[0..n) for c (its state replaced), encrypted
 * into f->blob; the ExternalBlobReference appended to *ref.  bad: the
 * snapshot MAC is corrupted.
 */
static void
phone_snapshot(struct fixture *f, enum wa_as_coll c,
    const struct wa_as_action *acts, size_t n, bool bad, struct buf *ref)
{
	Waas__SyncdSnapshot	 sn = WAAS__SYNCD_SNAPSHOT__INIT;
	Waas__SyncdVersion	 v = WAAS__SYNCD_VERSION__INIT;
	Waas__KeyId		 kid = WAAS__KEY_ID__INIT;
	Waas__ExternalBlobReference br = WAAS__EXTERNAL_BLOB_REFERENCE__INIT;
	Waas__SyncdPatch	*p;
	struct buf		 pb = BUF_INIT, plain = BUF_INIT;
	uint8_t			 mac[32], enc_sha[32], sha[32];
	size_t			 i;

	memset(&f->pst[c], 0, sizeof(f->pst[c]));
	map_clear(&f->pmap, (int)c);
	phone_patch(f, c, acts, n, false, false, &pb);
	p = waas__syncd_patch__unpack(NULL, pb.len, pb.p);
	assert_non_null(p);
	sn.records = xcalloc(p->n_mutations, sizeof(*sn.records));
	for (i = 0; i < p->n_mutations; i++)
		sn.records[i] = p->mutations[i]->record;
	sn.n_records = p->n_mutations;
	v.has_version = 1;
	v.version = f->pst[c].version;
	sn.version = &v;
	wa_as_snapshot_mac(&f->keys, f->pst[c].hash, f->pst[c].version, c,
	    mac);
	if (bad)
		mac[5] ^= 0x80;
	sn.has_mac = 1;
	sn.mac.data = mac;
	sn.mac.len = 32;
	kid.has_id = 1;
	kid.id.data = (uint8_t *)(uintptr_t)KEY_ID;
	kid.id.len = sizeof(KEY_ID);
	sn.keyid = &kid;
	buf_reserve(&plain, waas__syncd_snapshot__get_packed_size(&sn));
	plain.len = waas__syncd_snapshot__pack(&sn, plain.p);
	free(sn.records);
	waas__syncd_patch__free_unpacked(p, NULL);
	buf_release(&pb);
	f->blob.len = 0;
	assert_int_equal(wa_media_encrypt(f->media_key,
	    WA_MEDIA_INFO_APP_STATE, plain.p, plain.len, &f->blob, enc_sha,
	    sha), 0);
	buf_release(&plain);
	br.has_mediakey = 1;
	br.mediakey.data = f->media_key;
	br.mediakey.len = 32;
	br.directpath = (char *)"/v/t62.1-24/app-state-blob?ccb=1";
	br.has_filesha256 = 1;
	br.filesha256.data = sha;
	br.filesha256.len = 32;
	br.has_fileencsha256 = 1;
	br.fileencsha256.data = enc_sha;
	br.fileencsha256.len = 32;
	br.has_filesizebytes = 1;
	br.filesizebytes = f->blob.len;
	buf_reserve(ref, waas__external_blob_reference__get_packed_size(&br));
	ref->len += waas__external_blob_reference__pack(&br, ref->p + ref->len);
}

/* ---- the server's answers ---- */

struct ans_coll {
	const char	*name;
	uint64_t	 version;
	bool		 more;
	int		 error;		/* <error code>, 0 none */
	const struct buf *snapshot;	/* the blob reference, or NULL */
	const struct buf *patches[4];
	size_t		 npatches;
};

/* The answer to sync iq id with colls[0..n). */
static void
answer(struct fixture *f, const char *id, const struct ans_coll *colls,
    size_t n)
{
	struct arena	 a;
	struct wa_node	*iq, *sync, *k, *c, *ps;
	size_t		 i, j;

	arena_init(&a, 4096);
	iq = wa_nb_new(&a, "iq", 3);
	wa_nb_attr(iq, "id", id);
	wa_nb_attr(iq, "type", "result");
	sync = wa_nb_kid(&a, wa_nb_kids(&a, iq, 1), "sync", 0);
	k = wa_nb_kids(&a, sync, n);
	for (i = 0; i < n; i++) {
		size_t	 nk = (colls[i].snapshot != NULL) +
		    (colls[i].npatches > 0) + (colls[i].error != 0);

		c = wa_nb_kid(&a, &k[i], "collection", 4);
		wa_nb_attr(c, "name", colls[i].name);
		wa_nb_attr_num(&a, c, "version", (int64_t)colls[i].version);
		if (colls[i].more)
			wa_nb_attr(c, "has_more_patches", "true");
		if (colls[i].error != 0)
			wa_nb_attr(c, "type", "error");
		if (nk == 0)
			continue;
		ps = wa_nb_kids(&a, c, nk);
		if (colls[i].error != 0) {
			struct wa_node *e = wa_nb_kid(&a, ps++, "error", 1);

			wa_nb_attr_num(&a, e, "code", colls[i].error);
		}
		if (colls[i].snapshot != NULL)
			wa_nb_bytes(wa_nb_kid(&a, ps++, "snapshot", 0),
			    colls[i].snapshot->p, colls[i].snapshot->len);
		if (colls[i].npatches > 0) {
			struct wa_node	*pp = wa_nb_kid(&a, ps, "patches", 0);
			struct wa_node	*pk = wa_nb_kids(&a, pp,
			    colls[i].npatches);

			for (j = 0; j < colls[i].npatches; j++)
				wa_nb_bytes(wa_nb_kid(&a, &pk[j], "patch", 0),
				    colls[i].patches[j]->p,
				    colls[i].patches[j]->len);
		}
	}
	assert_int_equal(wa_appsync_stanza(f->s, iq), 1);
	arena_release(&a);
}

/* The media_conn answer to the last iq sent, naming one host. */
static void
answer_media_conn(struct fixture *f)
{
	struct arena	 a;
	struct wa_node	*iq, *mc, *h;

	assert_true(f->nsent > 0 && f->sent[f->nsent - 1].media_conn);
	arena_init(&a, 1024);
	iq = wa_nb_new(&a, "iq", 2);
	wa_nb_attr(iq, "id", f->sent[f->nsent - 1].id);
	wa_nb_attr(iq, "type", "result");
	mc = wa_nb_kid(&a, wa_nb_kids(&a, iq, 1), "media_conn", 2);
	wa_nb_attr(mc, "auth", "x");
	wa_nb_attr(mc, "ttl", "600");
	h = wa_nb_kid(&a, wa_nb_kids(&a, mc, 1), "host", 1);
	wa_nb_attr(h, "hostname", "media.sim.test");
	assert_int_equal(wa_appsync_stanza(f->s, iq), 1);
	arena_release(&a);
}

/* The media host answers the download in flight with status and f->blob
 * (or nothing). */
static void
serve(struct fixture *f, long status)
{
	uint8_t	*body = NULL;
	size_t	 len = 0;

	assert_true(f->get.live);
	f->get.live = false;
	if (status == 200) {
		len = f->blob.len;
		body = malloc(len);
		memcpy(body, f->blob.p, len);
	}
	f->get.done(f->get.arg, 0, status, body, len, NULL);
}

/* <notification type="server_sync"> naming collection name. */
static void
server_sync(struct fixture *f, const char *name)
{
	struct arena	 a;
	struct wa_node	*n, *k;

	arena_init(&a, 512);
	n = wa_nb_new(&a, "notification", 3);
	wa_nb_attr(n, "type", "server_sync");
	wa_nb_attr(n, "id", "n1");
	k = wa_nb_kid(&a, wa_nb_kids(&a, n, 1), "collection", 2);
	wa_nb_attr(k, "name", name);
	wa_nb_attr(k, "version", "3");
	assert_int_equal(wa_appsync_stanza(f->s, n), 1);
	arena_release(&a);
}

static const struct sent *
last_sync(struct fixture *f)
{
	assert_true(f->nsent > 0);
	assert_false(f->sent[f->nsent - 1].media_conn);
	return &f->sent[f->nsent - 1];
}

/* The index of collection name in sync iq s, or -1. */
static int
asks(const struct sent *s, const char *name)
{
	size_t	 i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->name[i], name) == 0)
			return (int)i;
	return -1;
}

/* ---- tests ---- */

static void
test_wa_appsync_online__asks_all_five_snapshots_in_one_iq__when_never_synced(
    void **state)
{
	struct fixture		*f = *state;
	const struct sent	*s;
	int			 i;

	wa_appsync_online(f->s);
	assert_int_equal(f->nsent, 1);
	s = last_sync(f);
	assert_int_equal(s->n, WA_AS_NCOLL);
	for (i = 0; i < WA_AS_NCOLL; i++) {
		/* in [WM]'s order, snapshot asked without a version (2.4) */
		assert_string_equal(s->name[i], wa_as_coll_name(i));
		assert_string_equal(s->snap[i], "true");
		assert_string_equal(s->version[i], "");
	}
}

static void
test_wa_appsync_online__asks_from_the_stored_version__when_synced_before(
    void **state)
{
	struct fixture		*f = *state;
	const struct sent	*s;
	int			 k;

	f->fs.st[WA_AS_REGULAR_HIGH].version = 17;
	wa_appsync_online(f->s);
	s = last_sync(f);
	k = asks(s, "regular_high");
	assert_true(k >= 0);
	assert_string_equal(s->snap[k], "false");
	assert_string_equal(s->version[k], "17");
	k = asks(s, "regular_low");
	assert_string_equal(s->snap[k], "true");
}

static void
test_wa_appsync_online__waits_for_the_key_share__when_no_key_is_stored(
    void **state)
{
	struct fixture	*f = *state;

	f->fs.has_key[0] = false;
	wa_appsync_online(f->s);
	assert_int_equal(f->nsent, 0);
	f->fs.has_key[0] = true;
	wa_appsync_keys(f->s);
	assert_int_equal(f->nsent, 1);
	assert_int_equal(last_sync(f)->n, WA_AS_NCOLL);
}

/* Everything but coll answered with no news; coll with what is given. */
static void
answer_one(struct fixture *f, const struct ans_coll *one)
{
	struct ans_coll	 c[WA_AS_NCOLL];
	const struct sent *s = last_sync(f);
	size_t		 i, n = 0;

	for (i = 0; i < s->n; i++) {
		if (strcmp(s->name[i], one->name) == 0) {
			c[n++] = *one;
			continue;
		}
		memset(&c[n], 0, sizeof(c[n]));
		c[n].name = s->name[i];
		n++;
	}
	answer(f, s->id, c, n);
}

/* Logged in, and critical_unblock_low answered with the phone's snapshot
 * of a (bad: its MAC corrupted) in *ref, as *c; the media hosts given. */
static void
snapshot_asked(struct fixture *f, const struct wa_as_action *a, bool bad,
    struct buf *ref, struct ans_coll *c)
{
	wa_appsync_online(f->s);
	phone_snapshot(f, WA_AS_CRITICAL_UNBLOCK_LOW, a, 1, bad, ref);
	memset(c, 0, sizeof(*c));
	c->name = "critical_unblock_low";
	c->version = 1;
	c->snapshot = ref;
	answer_one(f, c);
	answer_media_conn(f);
}

static void
test_wa_appsync_snapshot__is_downloaded_verified_and_committed__with_one_event(
    void **state)
{
	struct fixture		*f = *state;
	struct wa_as_action	 acts[2] = { contact(ALICE, "Alice Example"),
				    contact(BOB, "Bob Example") };
	struct buf		 ref = BUF_INIT;
	struct ans_coll		 c;

	wa_appsync_online(f->s);
	phone_snapshot(f, WA_AS_CRITICAL_UNBLOCK_LOW, acts, 2, false, &ref);
	memset(&c, 0, sizeof(c));
	c.name = "critical_unblock_low";
	c.version = 1;
	c.snapshot = &ref;
	answer_one(f, &c);
	/* the media hosts first, then the blob from the one named */
	assert_true(f->sent[f->nsent - 1].media_conn);
	answer_media_conn(f);
	assert_int_equal(f->gets, 1);
	assert_non_null(strstr(f->get.url, "https://media.sim.test/v/t62.1-24/"
	    "app-state-blob?ccb=1&hash="));
	assert_non_null(strstr(f->get.url, "&mms-type=md-app-state"));
	assert_int_equal(f->nev, 0);
	serve(f, 200);
	assert_int_equal(f->fs.commits, 1);
	assert_int_equal(f->fs.st[WA_AS_CRITICAL_UNBLOCK_LOW].version, 1);
	assert_memory_equal(f->fs.st[WA_AS_CRITICAL_UNBLOCK_LOW].hash,
	    f->pst[WA_AS_CRITICAL_UNBLOCK_LOW].hash, WA_AS_HASH_LEN);
	assert_int_equal(f->fs.nnames, 2);
	assert_string_equal(f->fs.names[0], ALICE "=Alice Example");
	assert_string_equal(f->fs.names[1], BOB "=Bob Example");
	assert_int_equal(f->nev, 1);
	assert_int_equal(f->ev[0].kind, WA_APPSYNC_EV_CHANGED);
	assert_int_equal(f->ev[0].actions, 2);
	assert_true(f->ev[0].names);
	assert_false(f->ev[0].chats);
	/* nothing more to ask */
	assert_true(f->sent[f->nsent - 1].media_conn);
	buf_release(&ref);
}

/* Synced to version v of c through a snapshot of acts (as above). */
static void
synced(struct fixture *f, enum wa_as_coll c, const struct wa_as_action *acts,
    size_t n)
{
	struct buf	 ref = BUF_INIT;
	struct ans_coll	 a;

	wa_appsync_online(f->s);
	phone_snapshot(f, c, acts, n, false, &ref);
	memset(&a, 0, sizeof(a));
	a.name = wa_as_coll_name(c);
	a.version = f->pst[c].version;
	a.snapshot = &ref;
	answer_one(f, &a);
	if (f->sent[f->nsent - 1].media_conn)
		answer_media_conn(f);
	serve(f, 200);
	assert_int_equal(f->fs.st[c].version, f->pst[c].version);
	buf_release(&ref);
	f->nev = 0;
}

static void
test_wa_appsync_patch__is_committed_and_more_patches_are_asked__when_has_more(
    void **state)
{
	struct fixture		*f = *state;
	struct wa_as_action	 a0 = mute(ALICE), a1 = mute(BOB),
				 a2 = mute(ALICE);
	struct buf		 p1 = BUF_INIT, p2 = BUF_INIT;
	struct ans_coll		 c;
	size_t			 before;
	const struct sent	*s;
	int			 k;

	synced(f, WA_AS_REGULAR_HIGH, &a0, 1);
	/* a server_sync names the collection */
	before = f->nsent;
	server_sync(f, "regular_high");
	assert_int_equal(f->nsent, before + 1);
	s = last_sync(f);
	assert_int_equal(s->n, 1);
	assert_string_equal(s->name[0], "regular_high");
	assert_string_equal(s->snap[0], "false");
	assert_string_equal(s->version[0], "1");
	phone_patch(f, WA_AS_REGULAR_HIGH, &a1, 1, false, false, &p1);
	memset(&c, 0, sizeof(c));
	c.name = "regular_high";
	c.version = 3;
	c.more = true;
	c.patches[0] = &p1;
	c.npatches = 1;
	answer(f, s->id, &c, 1);
	assert_int_equal(f->fs.st[WA_AS_REGULAR_HIGH].version, 2);
	assert_int_equal(f->nev, 1);
	assert_true(f->ev[0].chats);
	/* has_more_patches: asked again from version 2 */
	s = last_sync(f);
	k = asks(s, "regular_high");
	assert_true(k >= 0);
	assert_string_equal(s->version[k], "2");
	phone_patch(f, WA_AS_REGULAR_HIGH, &a2, 1, false, false, &p2);
	c.more = false;
	c.patches[0] = &p2;
	before = f->nsent;
	answer(f, s->id, &c, 1);
	assert_int_equal(f->fs.st[WA_AS_REGULAR_HIGH].version, 3);
	assert_int_equal(f->fs.nmuted, 3);
	assert_string_equal(f->fs.muted[1], BOB);
	assert_string_equal(f->fs.muted[2], ALICE);
	assert_int_equal(f->nsent, before);	/* done */
	buf_release(&p1);
	buf_release(&p2);
}

static void
test_wa_appsync_has_more__stops_after_the_round_cap__when_the_server_never_ends(
    void **state)
{
	struct fixture		*f = *state;
	struct wa_as_action	 a0 = mute(ALICE);
	size_t			 i, start;

	synced(f, WA_AS_REGULAR_HIGH, &a0, 1);
	start = f->nsent;
	wa_appsync_online(f->s);	/* a fresh budget */
	for (i = 0; i < 3 * WA_APPSYNC_MAX_ROUNDS && f->nsent > start; i++) {
		const struct sent *s = last_sync(f);
		struct ans_coll	 cc[WA_AS_NCOLL];
		size_t		 j;

		for (j = 0; j < s->n; j++) {
			memset(&cc[j], 0, sizeof(cc[j]));
			cc[j].name = s->name[j];
			cc[j].version = 1;
			cc[j].more = true;	/* and never any patch */
		}
		start = f->nsent;
		answer(f, s->id, cc, s->n);
	}
	/* the iqs of this trigger: the cap, then none */
	assert_int_equal(i, WA_APPSYNC_MAX_ROUNDS);
	/* a server_sync is a new trigger with a fresh budget */
	start = f->nsent;
	server_sync(f, "regular_high");
	assert_int_equal(f->nsent, start + 1);
}

static void
test_wa_appsync_bad_patch_mac__resets_and_asks_a_snapshot__then_gives_up(
    void **state)
{
	struct fixture		*f = *state;
	struct wa_as_action	 a0 = mute(ALICE), a1 = mute(BOB);
	struct buf		 p = BUF_INIT, ref = BUF_INIT;
	struct ans_coll		 c;
	const struct sent	*s;
	int			 round, k;

	synced(f, WA_AS_REGULAR_HIGH, &a0, 1);
	wa_appsync_online(f->s);
	s = last_sync(f);
	phone_patch(f, WA_AS_REGULAR_HIGH, &a1, 1, false, true, &p);
	memset(&c, 0, sizeof(c));
	c.name = "regular_high";
	c.version = 2;
	c.patches[0] = &p;
	c.npatches = 1;
	answer_one(f, &c);
	/* logged, reset, and the snapshot asked */
	assert_int_equal(f->fs.resets, 1);
	assert_int_equal(f->fs.st[WA_AS_REGULAR_HIGH].version, 0);
	assert_int_equal(f->fs.nmuted, 1);	/* the snapshot's only */
	s = last_sync(f);
	k = asks(s, "regular_high");
	assert_true(k >= 0);
	assert_string_equal(s->snap[k], "true");
	assert_string_equal(s->version[k], "");
	/* a bad snapshot each time: WA_APPSYNC_MAX_RESETS snapshots, then
	 * the collection is left alone */
	for (round = 0; round < WA_APPSYNC_MAX_RESETS; round++) {
		ref.len = 0;
		phone_snapshot(f, WA_AS_REGULAR_HIGH, &a1, 1, true, &ref);
		memset(&c, 0, sizeof(c));
		c.name = "regular_high";
		c.version = 2;
		c.snapshot = &ref;
		answer(f, last_sync(f)->id, &c, 1);
		if (f->sent[f->nsent - 1].media_conn)
			answer_media_conn(f);
		serve(f, 200);
	}
	assert_int_equal(f->fs.resets, 1 + WA_APPSYNC_MAX_RESETS);
	assert_int_equal(f->fs.st[WA_AS_REGULAR_HIGH].version, 0);
	/* no more iq for it, even on a server_sync */
	k = (int)f->nsent;
	server_sync(f, "regular_high");
	assert_int_equal((int)f->nsent, k);
	/* the next login tries again */
	wa_appsync_online(f->s);
	assert_true(asks(last_sync(f), "regular_high") >= 0);
	buf_release(&p);
	buf_release(&ref);
}

static void
test_wa_appsync_bad_snapshot_mac__recovers__when_the_next_snapshot_is_good(
    void **state)
{
	struct fixture		*f = *state;
	struct wa_as_action	 a0 = contact(ALICE, "Alice Example");
	struct buf		 ref = BUF_INIT;
	struct ans_coll		 c;

	snapshot_asked(f, &a0, true, &ref, &c);
	serve(f, 200);
	assert_int_equal(f->fs.commits, 0);
	assert_int_equal(f->fs.resets, 1);
	assert_int_equal(f->nev, 0);
	ref.len = 0;
	phone_snapshot(f, WA_AS_CRITICAL_UNBLOCK_LOW, &a0, 1, false, &ref);
	assert_int_equal(last_sync(f)->n, 1);
	answer(f, last_sync(f)->id, &c, 1);
	serve(f, 200);		/* the hosts are known now */
	assert_int_equal(f->fs.commits, 1);
	assert_int_equal(f->fs.nnames, 1);
	assert_string_equal(f->fs.names[0], ALICE "=Alice Example");
	assert_int_equal(f->nev, 1);
	/* the good snapshot ended the row: a bad patch and a bad snapshot
	 * later, a snapshot is still asked (not given up) */
	{
		struct wa_as_action	 a1 = contact(BOB, "Bob");
		struct buf		 p = BUF_INIT;
		struct ans_coll		 pc;
		size_t			 n;

		server_sync(f, "critical_unblock_low");
		phone_patch(f, WA_AS_CRITICAL_UNBLOCK_LOW, &a1, 1, false, true,
		    &p);
		memset(&pc, 0, sizeof(pc));
		pc.name = "critical_unblock_low";
		pc.version = 2;
		pc.patches[0] = &p;
		pc.npatches = 1;
		answer(f, last_sync(f)->id, &pc, 1);
		assert_int_equal(f->fs.resets, 2);
		ref.len = 0;
		phone_snapshot(f, WA_AS_CRITICAL_UNBLOCK_LOW, &a0, 1, true,
		    &ref);
		answer(f, last_sync(f)->id, &c, 1);
		n = f->nsent;
		serve(f, 200);
		assert_int_equal(f->fs.resets, 3);
		assert_int_equal(f->nsent, n + 1);	/* asked again */
		assert_string_equal(last_sync(f)->snap[0], "true");
		assert_int_equal(last_sync(f)->n, 1);
		buf_release(&p);
	}
	buf_release(&ref);
}

static void
test_wa_appsync_missing_key__parks_asks_the_phone_once_and_resumes_on_the_share(
    void **state)
{
	struct fixture		*f = *state;
	struct wa_as_action	 a0 = mute(ALICE), a1 = mute(BOB);
	struct buf		 p = BUF_INIT;
	struct ans_coll		 c;
	struct arena		 a;
	const uint8_t		*ids[4];
	size_t			 lens[4], before;
	int			 k;

	synced(f, WA_AS_REGULAR_HIGH, &a0, 1);
	wa_appsync_online(f->s);
	phone_patch(f, WA_AS_REGULAR_HIGH, &a1, 1, true, false, &p);
	memset(&c, 0, sizeof(c));
	c.name = "regular_high";
	c.version = 2;
	c.patches[0] = &p;
	c.npatches = 1;
	answer_one(f, &c);
	assert_int_equal(f->fs.commits, 1);	/* the snapshot's only */
	assert_int_equal(f->fs.resets, 0);	/* not a mismatch */
	/* one key request to our phone, naming the missing key */
	assert_int_equal(f->npeer, 1);
	arena_init(&a, 1024);
	assert_int_equal(wa_askey_request_parse(f->peer[0].p, f->peer[0].len,
	    &a, ids, lens, 4, NULL), 1);
	assert_int_equal(lens[0], sizeof(KEY_ID2));
	assert_memory_equal(ids[0], KEY_ID2, sizeof(KEY_ID2));
	arena_release(&a);
	/* a new login asks again and meets the same missing key: no second
	 * request within 24 h */
	wa_appsync_online(f->s);
	k = asks(last_sync(f), "regular_high");
	assert_true(k >= 0);
	assert_string_equal(last_sync(f)->version[k], "1");
	answer_one(f, &c);
	assert_int_equal(f->npeer, 1);
	/* a day later it is asked again */
	f->now_ms += WA_APPSYNC_KEY_REQUEST_MS + 1;
	wa_appsync_online(f->s);
	answer_one(f, &c);
	assert_int_equal(f->npeer, 2);
	/* parked: a server_sync does not fetch it */
	before = f->nsent;
	server_sync(f, "regular_high");
	assert_int_equal(f->nsent, before);
	/* the share arrives: the collection is fetched again and applied */
	f->fs.has_key[1] = true;
	wa_appsync_keys(f->s);
	assert_int_equal(f->nsent, before + 1);
	assert_true(asks(last_sync(f), "regular_high") >= 0);
	answer_one(f, &c);
	assert_int_equal(f->fs.st[WA_AS_REGULAR_HIGH].version, 2);
	assert_int_equal(f->fs.nmuted, 2);
	assert_string_equal(f->fs.muted[1], BOB);
	assert_int_equal(f->nev, 1);
	buf_release(&p);
}

static void
test_wa_appsync_errors__fatal_is_given_up_and_others_are_retried_later(
    void **state)
{
	struct fixture		*f = *state;
	struct ans_coll		 c[WA_AS_NCOLL];
	const struct sent	*s;
	size_t			 i, before;

	wa_appsync_online(f->s);
	s = last_sync(f);
	for (i = 0; i < s->n; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		c[i].name = s->name[i];
	}
	c[0].error = 400;	/* critical_block: fatal */
	c[1].error = 500;	/* critical_unblock_low: later */
	c[2].error = 404;	/* regular_high: fatal */
	before = f->nsent;
	answer(f, s->id, c, s->n);
	assert_int_equal(f->nsent, before);	/* nothing at once */
	/* the next trigger retries the 500 only */
	wa_appsync_keys(f->s);
	s = last_sync(f);
	assert_true(asks(s, "critical_unblock_low") >= 0);
	assert_true(asks(s, "critical_block") < 0);
	assert_true(asks(s, "regular_high") < 0);
}

static void
test_wa_appsync_offline__cancels_the_download__and_the_next_login_resumes(
    void **state)
{
	struct fixture		*f = *state;
	struct wa_as_action	 a0 = contact(ALICE, "Alice");
	struct buf		 ref = BUF_INIT;
	struct ans_coll		 c;

	snapshot_asked(f, &a0, false, &ref, &c);
	assert_true(f->get.live);
	wa_appsync_offline(f->s);
	assert_false(f->get.live);
	assert_int_equal(f->cancels, 1);
	assert_int_equal(f->fs.commits, 0);
	/* the next login: asked again, still a snapshot */
	wa_appsync_online(f->s);
	assert_string_equal(last_sync(f)->snap[asks(last_sync(f),
	    "critical_unblock_low")], "true");
	answer_one(f, &c);
	answer_media_conn(f);	/* a new connection asks the hosts again */
	serve(f, 200);
	assert_int_equal(f->fs.commits, 1);
	buf_release(&ref);
}

static void
test_wa_appsync_store_full__stops_and_says_so_once(void **state)
{
	struct fixture		*f = *state;
	struct wa_as_action	 a0 = contact(ALICE, "Alice");
	struct buf		 ref = BUF_INIT;
	struct ans_coll		 c;
	size_t			 before;

	snapshot_asked(f, &a0, false, &ref, &c);
	f->fs.fail = -ENOSPC;
	before = f->nsent;
	serve(f, 200);
	assert_int_equal(f->fs.commits, 0);
	assert_int_equal(f->nev, 1);
	assert_int_equal(f->ev[0].kind, WA_APPSYNC_EV_STORE_FAILED);
	assert_int_equal(f->ev[0].err, -ENOSPC);
	assert_int_equal(f->nsent, before);	/* nothing more asked */
	buf_release(&ref);
}

static void
test_wa_askey_share__round_trips__and_refuses_a_share_without_keys(
    void **state)
{
	struct wa_askey		 k[2];
	struct wa_askey_share	 ks;
	struct buf		 b = BUF_INIT;
	struct arena		 a;
	const uint8_t		*ids[2] = { KEY_ID, KEY_ID2 };
	const size_t		 lens[2] = { sizeof(KEY_ID), sizeof(KEY_ID2) };

	(void)state;
	memset(k, 0, sizeof(k));
	k[0].id = KEY_ID;
	k[0].id_len = sizeof(KEY_ID);
	k[0].data = KEY_DATA;
	k[0].data_len = 32;
	k[0].ts = 1700000000123LL;
	k[1] = k[0];
	k[1].id = KEY_ID2;
	k[1].data = KEY_DATA2;
	assert_int_equal(wa_askey_share_build(k, 2, &b), 0);
	arena_init(&a, 1024);
	assert_int_equal(wa_askey_share_parse(b.p, b.len, &a, &ks, NULL), 0);
	assert_int_equal(ks.n, 2);
	assert_memory_equal(ks.keys[1].id, KEY_ID2, sizeof(KEY_ID2));
	assert_memory_equal(ks.keys[1].data, KEY_DATA2, 32);
	assert_int_equal(ks.keys[0].ts, 1700000000123LL);
	/* a key request is not a share */
	b.len = 0;
	assert_int_equal(wa_askey_request(ids, lens, 2, &b), 0);
	assert_int_equal(wa_askey_share_parse(b.p, b.len, &a, &ks, NULL),
	    WC_EPROTO);
	/* nor are random bytes */
	assert_true(wa_askey_share_parse((const uint8_t *)"\xff\xff\xff", 3,
	    &a, &ks, NULL) < 0);
	assert_int_equal(wa_askey_request(ids, lens, 0, &b), -EINVAL);
	arena_release(&a);
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_wa_appsync_online__asks_all_five_snapshots_in_one_iq__when_never_synced),
		T(test_wa_appsync_online__asks_from_the_stored_version__when_synced_before),
		T(test_wa_appsync_online__waits_for_the_key_share__when_no_key_is_stored),
		T(test_wa_appsync_snapshot__is_downloaded_verified_and_committed__with_one_event),
		T(test_wa_appsync_patch__is_committed_and_more_patches_are_asked__when_has_more),
		T(test_wa_appsync_has_more__stops_after_the_round_cap__when_the_server_never_ends),
		T(test_wa_appsync_bad_patch_mac__resets_and_asks_a_snapshot__then_gives_up),
		T(test_wa_appsync_bad_snapshot_mac__recovers__when_the_next_snapshot_is_good),
		T(test_wa_appsync_missing_key__parks_asks_the_phone_once_and_resumes_on_the_share),
		T(test_wa_appsync_errors__fatal_is_given_up_and_others_are_retried_later),
		T(test_wa_appsync_offline__cancels_the_download__and_the_next_login_resumes),
		T(test_wa_appsync_store_full__stops_and_says_so_once),
		cmocka_unit_test(test_wa_askey_share__round_trips__and_refuses_a_share_without_keys),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
