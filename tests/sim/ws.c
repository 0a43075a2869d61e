/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/ws.c -- the simulator's front door: WebSocket server through
 * libwebsockets on the sim's libuv loop, the WhatsApp frame layer, the
 * Noise responder, the ClientPayload (registration or login) and the
 * stanzas that follow (protocol.md 1-3, 6.1, 7.1; interop.md 1-2).
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <libwebsockets.h>
#include <openssl/evp.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "proto/cert.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/frame.h"
#include "proto/noise.h"
#include "nodes.h"
#include "proto/pb.h"
#include "session.h"
#include "sim.h"
#include "wa6.pb-c.h"
#include "adv.pb-c.h"
#include "base/xmalloc.h"

#define SIM_MAX_FRAME	(1u << 22)	/* bytes of a client frame payload */

/* One queued WebSocket message, with LWS_PRE bytes of room in front. */
struct txmsg {
	struct txmsg	*next;
	size_t		 len;
	uint8_t		 data[];	/* LWS_PRE + len bytes */
};

/* lws per-session data. */
struct pss {
	struct sim_conn	*c;
};

static int64_t
now_s(void)
{
	return (int64_t)time(NULL);
}

void
sim_conn_log(struct sim_conn *c, const char *fmt, ...)
{
	char	 line[512];
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sim_log(c->s, "conn %" PRIu64 ": %s", c->id, line);
}

static void
note(struct sim_conn *c, const char *what)
{
	snprintf(c->last, sizeof(c->last), "%s", what);
}

static void
queue_raw(struct sim_conn *c, const uint8_t *p, size_t len)
{
	struct txmsg	*m = xmalloc(sizeof(*m) + LWS_PRE + len);

	m->next = NULL;
	m->len = len;
	memcpy(m->data + LWS_PRE, p, len);
	*c->txq_tail = m;
	c->txq_tail = &m->next;
	c->txq_len++;
	if (c->wsi != NULL)
		lws_callback_on_writable(c->wsi);
}

static void
txq_free(struct sim_conn *c)
{
	struct txmsg	*m;

	while ((m = c->txq) != NULL) {
		c->txq = m->next;
		free(m);
	}
	c->txq_tail = &c->txq;
	c->txq_len = 0;
}

/* Frame p[0..len) (no header: the server never sends one) and queue it. */
static int
send_frame(struct sim_conn *c, const uint8_t *p, size_t len)
{
	struct buf	 out = BUF_INIT;
	int		 rc;

	if ((rc = wa_frame_write(&c->wr, p, len, &out)) == 0)
		queue_raw(c, out.p, out.len);
	buf_release(&out);
	c->frames_out++;
	return rc;
}

int
sim_conn_send_node(struct sim_conn *c, const struct wa_node *n)
{
	struct buf	 plain = BUF_INIT, out = BUF_INIT;
	uint8_t		*payload;
	int		 rc;

	if (!c->have_t)
		return WC_ESTATE;
	if ((rc = wa_bin_pack(n, &plain)) != 0)
		goto out;
	if (c->s->opt.verbose) {
		struct buf	 txt = BUF_INIT;

		wa_bin_print(n, 0, &txt);
		buf_push(&txt, '\0');
		sim_conn_log(c, "send %s", (char *)txt.p);
		buf_release(&txt);
	}
	if ((rc = wa_frame_reserve(&c->wr, plain.len + WA_NOISE_OVERHEAD,
	    &out, &payload)) != 0)
		goto out;
	if ((rc = wa_noise_encrypt(&c->t, plain.p, plain.len, payload)) != 0)
		goto out;
	if (c->cut_next > 0 && wa_str_eqc(n->tag, "message")) {
		/* The connection breaks in the middle of this frame: it stays
		 * unacked in the route's queue, for the next login. */
		size_t	 k = c->cut_next < out.len ? c->cut_next : out.len - 1;

		sim_conn_log(c, "cut: %zu of %zu bytes of a <message> frame, "
		    "then closed", k, out.len);
		c->cut_next = 0;
		queue_raw(c, out.p, k);
		sim_conn_close_after(c);
		goto out;
	}
	queue_raw(c, out.p, out.len);
	c->frames_out++;
out:
	buf_release(&plain);
	buf_release(&out);
	return rc;
}

void
sim_conn_iq_id(struct sim_conn *c, char *out, size_t len)
{
	snprintf(out, len, "sim-%" PRIu64, ++c->s->next_iq);
}

void
sim_conn_close_after(struct sim_conn *c)
{
	c->close_after = true;
	c->st = SIM_C_CLOSING;
	if (c->wsi != NULL)
		lws_callback_on_writable(c->wsi);
}

void
sim_conn_drop(struct sim_conn *c)
{
	c->kill = true;
	c->st = SIM_C_CLOSING;
	note(c, "dropped by admin");
	if (c->wsi != NULL)
		lws_callback_on_writable(c->wsi);
}

/* Send a single-node stanza <tag key=val/> and close. */
static int
send_and_close(struct sim_conn *c, const char *tag, const char *key,
    int val)
{
	struct arena	 a;
	struct wa_node	*n;
	char		 v[16];
	int		 rc;

	if (c->st != SIM_C_READY)
		return WC_ESTATE;
	arena_init(&a, 0);
	n = sn_new(&a, tag);
	snprintf(v, sizeof(v), "%d", val);
	sn_attr(&a, n, key, v);
	rc = sim_conn_send_node(c, n);
	arena_release(&a);
	if (rc == 0) {
		sim_conn_log(c, "sent <%s %s=\"%d\"/>, closing", tag, key, val);
		snprintf(c->last, sizeof(c->last), "sent %s %d", tag, val);
		sim_conn_close_after(c);
	}
	return rc;
}

int
sim_conn_stream_error(struct sim_conn *c, int code)
{
	return send_and_close(c, "stream:error", "code", code);
}

int
sim_conn_failure(struct sim_conn *c, int reason)
{
	sim_loops_failure(c->s, reason);
	return send_and_close(c, "failure", "reason", reason);
}

int
sim_conn_bad(struct sim_conn *c, enum sim_bad bad)
{
	uint8_t		 p[64], key[32], nonce[12];
	int		 rc;

	if (c->st != SIM_C_READY)
		return WC_ESTATE;
	switch (bad) {
	case SIM_BAD_NONE:
		return 0;
	case SIM_BAD_TRUNCATED:
		/* Announces 256 bytes, sends 10, then ends the stream. */
		p[0] = 0x00;
		p[1] = 0x01;
		p[2] = 0x00;
		sim_random(p + 3, 10);
		queue_raw(c, p, 13);
		sim_conn_close_after(c);
		break;
	case SIM_BAD_OVERSIZED:
		/* The largest 24-bit length, and a little of it. */
		p[0] = p[1] = p[2] = 0xff;
		sim_random(p + 3, 16);
		queue_raw(c, p, 19);
		break;
	case SIM_BAD_GARBAGE:
		/* A frame too short to be a GCM ciphertext. */
		p[0] = 0;
		p[1] = 0;
		p[2] = 5;
		sim_random(p + 3, 5);
		queue_raw(c, p, 8);
		break;
	case SIM_BAD_UNDECRYPTABLE:
		/* A well-formed ciphertext under a key nobody has. */
		sim_random(key, sizeof(key));
		memset(nonce, 0, sizeof(nonce));
		memset(p, 0, 16);
		if ((rc = wa_crypto_gcm_seal_once(key, nonce, NULL, 0, p, 16,
		    p + 3)) != 0)
			return rc;
		p[0] = 0;
		p[1] = 0;
		p[2] = 32;
		queue_raw(c, p, 35);
		wa_crypto_wipe(key, sizeof(key));
		break;
	}
	sim_conn_log(c, "sent a malformed frame: %s", sim_bad_name(bad));
	snprintf(c->last, sizeof(c->last), "sent malformed %s",
	    sim_bad_name(bad));
	return 0;
}

/* --- handshake --- */

static int
on_client_hello(struct sim_conn *c, const uint8_t *p, size_t len)
{
	struct sim	*s = c->s;
	struct buf	 msg = BUF_INIT, faulty = BUF_INIT;
	const struct buf *chain = &s->chain;
	uint8_t		 e[WA_CRYPTO_KEY_LEN];
	int		 rc;

	if ((rc = wa_noise_read_client_hello(&c->hs, p, len)) != 0) {
		sim_conn_log(c, "bad ClientHello: %s", wc_strerror(rc));
		return rc;
	}
	c->cert_fault = s->cert_fault;
	if (c->cert_fault != SIM_CERT_OK) {
		if ((rc = sim_ws_chain(s, c->cert_fault, &faulty)) != 0)
			goto out;
		chain = &faulty;
		sim_conn_log(c, "sending a faulty certificate chain: %s",
		    sim_cert_fault_name(c->cert_fault));
	}
	sim_random(e, sizeof(e));
	rc = wa_noise_server_hello(&c->hs, e, s->static_priv, chain->p,
	    chain->len, &msg);
	wa_crypto_wipe(e, sizeof(e));
	if (rc != 0) {
		sim_conn_log(c, "cannot make ServerHello: %s", wc_strerror(rc));
		goto out;
	}
	if ((rc = send_frame(c, msg.p, msg.len)) != 0)
		goto out;
	c->st = SIM_C_FINISH;
out:
	buf_release(&msg);
	buf_release(&faulty);
	return rc;
}

static uint32_t
be(const ProtobufCBinaryData *b)
{
	uint32_t	 v = 0;
	size_t		 i;

	for (i = 0; i < b->len; i++)
		v = v << 8 | b->data[i];
	return v;
}

/* Copy the registration data; returns a reason it is unusable, or NULL. */
static const char *
take_reg(struct sim_conn *c, const Wa__ClientPayload__DevicePairingRegistrationData *d)
{
	struct sim_reg	*r = &c->reg;
	uint8_t		 msg[1 + SIM_KEY_LEN];

	if (!d->has_eregid || d->eregid.len != 4)
		return "eRegid is not 4 bytes";
	if (!d->has_ekeytype || d->ekeytype.len != 1 ||
	    d->ekeytype.data[0] != 5)
		return "eKeytype is not 05";
	if (!d->has_eident || d->eident.len != SIM_KEY_LEN)
		return "eIdent is not 32 bytes";
	if (!d->has_eskeyid || d->eskeyid.len != 3)
		return "eSkeyID is not 3 bytes";
	if (!d->has_eskeyval || d->eskeyval.len != SIM_KEY_LEN)
		return "eSkeyVal is not 32 bytes";
	if (!d->has_eskeysig || d->eskeysig.len != 64)
		return "eSkeySig is not 64 bytes";
	if (!d->has_buildhash || d->buildhash.len != 16)
		return "buildHash is not 16 bytes";
	r->reg_id = be(&d->eregid);
	memcpy(r->ident_pub, d->eident.data, SIM_KEY_LEN);
	r->spk_id = be(&d->eskeyid);
	memcpy(r->spk_pub, d->eskeyval.data, SIM_KEY_LEN);
	memcpy(r->spk_sig, d->eskeysig.data, 64);
	memcpy(r->build_hash, d->buildhash.data, 16);
	msg[0] = 5;
	memcpy(msg + 1, r->spk_pub, SIM_KEY_LEN);
	r->spk_sig_ok = wa_crypto_xeddsa_verify(r->ident_pub, msg,
	    sizeof(msg), r->spk_sig) == 0;
	if (d->has_deviceprops) {
		ProtobufCMessage	*m = NULL;

		if (wa_pb_unpack(&wa__device_props__descriptor,
		    d->deviceprops.data, d->deviceprops.len, &m) == 0) {
			Wa__DeviceProps	*dp = (Wa__DeviceProps *)m;

			snprintf(r->os, sizeof(r->os), "%s", dp->os != NULL ?
			    dp->os : "");
			r->platform_type = dp->has_platformtype ?
			    (int)dp->platformtype : 0;
			r->full_sync = dp->has_requirefullsync &&
			    dp->requirefullsync;
			sim_offline_reg_props(c->s, dp);
			protobuf_c_message_free_unpacked(m, NULL);
		} else
			return "deviceProps is not a DeviceProps";
	}
	return NULL;
}

static void
send_pair_device(struct sim_conn *c)
{
	struct arena	 a;
	struct wa_node	*iq, *pd;
	char		 t[24];
	unsigned	 i;

	arena_init(&a, 0);
	sim_conn_iq_id(c, c->pair_iq, sizeof(c->pair_iq));
	iq = sn_new(&a, "iq");
	sn_attr_jid(&a, iq, "from", "", "s.whatsapp.net", 0);
	sn_attr(&a, iq, "type", "set");
	sn_attr(&a, iq, "id", c->pair_iq);
	sn_attr(&a, iq, "xmlns", "md");
	snprintf(t, sizeof(t), "%" PRId64, now_s());
	sn_attr(&a, iq, "t", t);
	pd = sn_child(&a, iq, "pair-device");
	c->nrefs = c->s->opt.nrefs;
	for (i = 0; i < c->nrefs; i++) {
		uint8_t		 r[18];
		struct wa_node	*ref;

		/* "2@" and the base64 of 18 random bytes: 26 characters. */
		sim_random(r, sizeof(r));
		memcpy(c->refs[i], "2@", 2);
		EVP_EncodeBlock((unsigned char *)c->refs[i] + 2, r, sizeof(r));
		ref = sn_child(&a, pd, "ref");
		sn_bytes(&a, ref, c->refs[i], strlen(c->refs[i]));
	}
	if (sim_conn_send_node(c, iq) == 0) {
		sim_conn_log(c, "registration: sent pair-device with %u refs "
		    "(iq %s)", c->nrefs, c->pair_iq);
		note(c, "pair-device sent");
	}
	arena_release(&a);
}

static void
send_success(struct sim_conn *c)
{
	struct arena	 a;
	struct wa_node	*n;
	char		 t[24];

	arena_init(&a, 0);
	n = sn_new(&a, "success");
	snprintf(t, sizeof(t), "%" PRId64, now_s());
	sn_attr(&a, n, "t", t);
	sn_attr_jid(&a, n, "lid", c->acct->lid, "lid", (uint16_t)c->dev->id);
	sn_attr(&a, n, "props", "1");
	sn_attr(&a, n, "abprops", "1");
	sn_attr(&a, n, "location", "sim");
	snprintf(t, sizeof(t), "%" PRId64, c->dev->paired_at);
	sn_attr(&a, n, "creation", t);
	if (sim_conn_send_node(c, n) == 0) {
		c->authed = true;
		sim_conn_log(c, "login of %s:%u: success", c->acct->pn,
		    c->dev->id);
		note(c, "logged in");
	}
	if (c->authed && c->s->silent_next == 2) {
		c->s->silent_next = 0;
		c->silent = true;
		sim_conn_log(c, "silent after <success> (knob)");
		arena_release(&a);
		return;
	}
	/* The account's push name, as the server tells a companion
	 * (<notification type="account_sync" pushname>, protocol.md 11.7,
	 * [RS]; interop.md P9: without one a client sends no presence). */
	if (c->authed && c->acct->name[0] != '\0') {
		struct wa_node	*as = sn_new(&a, "notification");
		char		 id[32];

		sim_conn_iq_id(c, id, sizeof(id));
		sn_attr_jid(&a, as, "from", c->acct->pn, "s.whatsapp.net", 0);
		sn_attr(&a, as, "id", id);
		snprintf(t, sizeof(t), "%" PRId64, now_s());
		sn_attr(&a, as, "t", t);
		sn_attr(&a, as, "type", "account_sync");
		sn_attr(&a, as, "pushname", c->acct->name);
		(void)sim_conn_send_node(c, as);
	}
	/* The offline backlog (offline.c, protocol.md 11.6): after
	 * <active/>, or now for a login that is not passive; it ends with
	 * <ib><offline> (interop.md P3: without it Baileys waits 30 s). */
	if (c->authed && !c->passive)
		sim_offline_start(c);
	arena_release(&a);
}

static void
fail(struct sim_conn *c, int reason, const char *why)
{
	sim_conn_log(c, "failure %d: %s", reason, why);
	(void)sim_conn_failure(c, reason);
	snprintf(c->last, sizeof(c->last), "failure %d: %s", reason, why);
}

static void
on_login(struct sim_conn *c, const Wa__ClientPayload *cp)
{
	char		 pn[SIM_PN_MAX];
	uint32_t	 forced;

	if ((forced = sim_loops_payload(c->s, false)) != 0) {
		fail(c, (int)forced, "asked by the admin (login-failure)");
		return;
	}
	if (!cp->has_username || cp->username == 0) {
		fail(c, 401, "login without a username");
		return;
	}
	c->username = cp->username;
	c->device = cp->has_device ? cp->device : 0;
	c->passive = cp->has_passive && cp->passive;
	snprintf(pn, sizeof(pn), "%" PRIu64, c->username);
	if ((c->acct = sim_account_by_pn(c->s, pn)) == NULL ||
	    (c->dev = sim_device_find(c->acct, c->device)) == NULL ||
	    c->dev->removed) {
		c->acct = NULL;
		fail(c, 401, "login of an unknown device");
		return;
	}
	if (memcmp(c->dev->noise_pub, c->client_static, SIM_KEY_LEN) != 0) {
		fail(c, 401, "noise key differs from the registered one");
		return;
	}
	send_success(c);
}

static void
on_client_payload(struct sim_conn *c, const uint8_t *p, size_t len)
{
	ProtobufCMessage	*m = NULL;
	Wa__ClientPayload	*cp;
	const char		*why;
	uint32_t		 prim = 0, sec = 0, rev = 0;
	int			 rc;

	if ((rc = wa_pb_unpack(&wa__client_payload__descriptor, p, len,
	    &m)) != 0) {
		fail(c, 400, "ClientPayload does not unpack");
		return;
	}
	cp = (Wa__ClientPayload *)m;
	if (cp->pushname != NULL)
		snprintf(c->push_name, sizeof(c->push_name), "%s",
		    cp->pushname);
	if (cp->useragent != NULL && cp->useragent->appversion != NULL) {
		Wa__ClientPayload__UserAgent__AppVersion *v =
		    cp->useragent->appversion;

		prim = v->primary;
		sec = v->secondary;
		rev = v->tertiary;
		snprintf(c->version, sizeof(c->version), "%u.%u.%u",
		    v->primary, v->secondary, v->tertiary);
	}
	/* Older than 2.3000.min_revision, comparing the whole triple. */
	if (c->s->min_revision != 0 && (prim < 2 || (prim == 2 &&
	    (sec < 3000 || (sec == 3000 && rev < c->s->min_revision))))) {
		char	 old[96];

		snprintf(old, sizeof(old), "client version %s is older than "
		    "2.3000.%u", c->version, c->s->min_revision);
		fail(c, 405, old);
		goto out;
	}
	if (cp->devicepairingdata != NULL) {
		c->registration = true;
		(void)sim_loops_payload(c->s, true);
		if ((why = take_reg(c, cp->devicepairingdata)) != NULL) {
			fail(c, 400, why);
			goto out;
		}
		sim_conn_log(c, "registration from %s (version %s, regid %u, "
		    "signed prekey %u %s)", c->reg.os[0] != '\0' ? c->reg.os :
		    "?", c->version, c->reg.reg_id, c->reg.spk_id,
		    c->reg.spk_sig_ok ? "verifies" : "DOES NOT VERIFY");
		send_pair_device(c);
	} else
		on_login(c, cp);
out:
	protobuf_c_message_free_unpacked(m, NULL);
}

static int
on_client_finish(struct sim_conn *c, const uint8_t *p, size_t len)
{
	struct buf	 payload = BUF_INIT;
	enum sim_bad	 bad;
	int		 rc;

	if ((rc = wa_noise_read_client_finish(&c->hs, p, len,
	    c->client_static, &payload)) != 0) {
		sim_conn_log(c, "bad ClientFinish: %s", wc_strerror(rc));
		goto out;
	}
	if ((rc = wa_noise_split(&c->hs, &c->t)) != 0)
		goto out;
	c->have_t = true;
	c->st = SIM_C_READY;
	c->s->nhandshakes++;
	if (c->wsi != NULL)
		lws_set_timeout(c->wsi, NO_PENDING_TIMEOUT, 0);
	sim_conn_log(c, "handshake complete");
	note(c, "handshake complete");
	if (c->s->silent_next == 1) {
		c->s->silent_next = 0;
		c->silent = true;
		sim_conn_log(c, "silent after the handshake (knob)");
		goto out;
	}
	if ((bad = c->s->bad_next) != SIM_BAD_NONE) {
		c->s->bad_next = SIM_BAD_NONE;
		rc = sim_conn_bad(c, bad);
		goto out;
	}
	on_client_payload(c, payload.p, payload.len);
out:
	wa_crypto_wipe(payload.p, payload.len);
	buf_release(&payload);
	return rc;
}

/* --- stanzas --- */

static void
log_shape(struct sim_conn *c, const char *what, const struct wa_node *n)
{
	struct buf	 txt = BUF_INIT;

	wa_bin_print(n, 0, &txt);
	buf_push(&txt, '\0');
	sim_conn_log(c, "%s:\n%s", what, (char *)txt.p);
	buf_release(&txt);
}

static void
answer_ping(struct sim_conn *c, const struct wa_node *n)
{
	struct arena	 a;
	struct wa_node	*r;
	struct wa_str	 id = sn_get(n, "id");
	char		 ids[64];

	snprintf(ids, sizeof(ids), "%.*s", (int)id.len, id.p);
	arena_init(&a, 0);
	r = sn_new(&a, "iq");
	sn_attr_jid(&a, r, "from", "", "s.whatsapp.net", 0);
	sn_attr(&a, r, "type", "result");
	sn_attr(&a, r, "id", ids);
	(void)sim_conn_send_node(c, r);
	arena_release(&a);
}

/* Handle one stanza; returns 1 when understood. */
static int
on_stanza(struct sim_conn *c, const struct wa_node *n)
{
	struct wa_str	 type = sn_get(n, "type"), id = sn_get(n, "id");

	if (sn_is(n, "iq")) {
		if (c->pair_iq[0] != '\0' && wa_str_eqc(id, c->pair_iq) &&
		    wa_str_eqc(type, "result")) {
			c->pair_acked = true;
			sim_conn_log(c, "pair-device acknowledged");
			note(c, "pair-device acknowledged");
			return 1;
		}
		if (sim_pair_handle_reply(c, n))
			return 1;
		if (sim_pair_handle_link_code(c, n))
			return 1;
		if (wa_str_eqc(type, "get") &&
		    (wa_str_eqc(sn_get(n, "xmlns"), "w:p") ||
		    wa_str_eqc(sn_get(n, "xmlns"), "urn:xmpp:ping"))) {
			answer_ping(c, n);
			return 1;
		}
	}
	if (sn_is(n, "ib") && sim_offline_ib(c, n))
		return 1;	/* unified_session, offline_batch */
	if (sn_is(n, "ack") && (wa_str_eqc(sn_get(n, "class"),
	    "notification") || wa_str_eqc(sn_get(n, "class"), "call"))) {
		struct wa_str	 t = sn_get(n, "type"), k = sn_get(n, "class");

		sim_conn_log(c, "%.*s %.*s acked (%.*s)", (int)k.len, k.p,
		    (int)id.len, id.p, (int)t.len, t.p);
		sim_route_notification_ack(c, n);
		return 1;
	}
	if (sn_is(n, "call") && sim_call_from_client(c, n))
		return 1;
	return sim_connect_handle(c, n);
}

static int
on_transport_frame(struct sim_conn *c, const uint8_t *p, size_t len)
{
	struct arena	 a;
	struct wa_node	*n;
	uint8_t		*plain;
	size_t		 off = 0;
	int		 rc;

	if (len < WA_NOISE_OVERHEAD) {
		sim_conn_log(c, "frame of %zu bytes is too short", len);
		return WC_ETRUNC;
	}
	plain = xmalloc(len);
	if ((rc = wa_noise_decrypt(&c->t, p, len, plain)) != 0) {
		sim_conn_log(c, "frame does not decrypt: %s", wc_strerror(rc));
		free(plain);
		return rc;
	}
	arena_init(&a, 0);
	rc = wa_bin_unpack(plain, len - WA_NOISE_OVERHEAD, &a, &n, &off);
	if (rc != 0)
		sim_conn_log(c, "stanza does not decode: %s at byte %zu",
		    wc_strerror(rc), off);
	else if (c->s->opt.verbose)
		log_shape(c, "recv", n);
	if (rc == 0 && !on_stanza(c, n)) {
		c->unknown++;
		if (!c->s->opt.verbose)
			log_shape(c, "unhandled stanza", n);
	}
	arena_release(&a);
	free(plain);
	return rc == 0 || rc == WC_ETRUNC || rc == WC_ETOKEN ||
	    rc == WC_EPROTO || rc == WC_ETRAILING ? 0 : rc;
}

static int
on_frame(struct sim_conn *c, const uint8_t *p, size_t len)
{
	c->frames_in++;
	switch (c->st) {
	case SIM_C_PREFIX:
	case SIM_C_HELLO:
		return on_client_hello(c, p, len);
	case SIM_C_FINISH:
		return on_client_finish(c, p, len);
	case SIM_C_READY:
		return c->silent ? 0 : on_transport_frame(c, p, len);
	case SIM_C_CLOSING:
		return 0;
	}
	return 0;
}

/*
 * Consume the connection header at the start of the stream: "WA 06 03",
 * optionally preceded by the edge-routing pre-intro "ED 00 01" + 3-byte
 * length + routing info (protocol.md 1.2), which is skipped.  Advances
 * *p and *len; returns 0, or WC_EPROTO on a wrong header.
 */
static int
eat_prefix(struct sim_conn *c, const uint8_t **p, size_t *len)
{
	while (*len > 0 && c->st == SIM_C_PREFIX) {
		if (c->skip > 0) {
			size_t	 n = c->skip < *len ? c->skip : *len;

			*p += n;
			*len -= n;
			c->skip -= n;
			continue;
		}
		c->hdr[c->hdr_len++] = **p;
		(*p)++;
		(*len)--;
		if (c->hdr[0] == 'E' && !c->ed) {
			if (c->hdr_len < 7)
				continue;
			if (memcmp(c->hdr, "ED\x00\x01", 4) != 0)
				return WC_EPROTO;
			c->skip = (size_t)c->hdr[4] << 16 |
			    (size_t)c->hdr[5] << 8 | c->hdr[6];
			c->hdr_len = 0;
			c->ed = true;
			continue;
		}
		if (c->hdr_len < WA_FRAME_CONN_HEADER_LEN)
			continue;
		if (memcmp(c->hdr, WA_FRAME_CONN_HEADER,
		    WA_FRAME_CONN_HEADER_LEN) != 0)
			return WC_EPROTO;
		c->st = SIM_C_HELLO;
	}
	return 0;
}

static int
on_receive(struct sim_conn *c, const uint8_t *p, size_t len)
{
	const uint8_t	*frame;
	size_t		 flen;
	int		 rc;

	if (c->st == SIM_C_PREFIX && (rc = eat_prefix(c, &p, &len)) != 0) {
		sim_conn_log(c, "wrong connection header");
		return rc;
	}
	if (len == 0)
		return 0;
	wa_frame_reader_feed(&c->rd, p, len);
	while ((rc = wa_frame_reader_next(&c->rd, &frame, &flen)) == 1) {
		if ((rc = on_frame(c, frame, flen)) != 0)
			return rc;
		if (c->kill)
			return 0;
	}
	if (rc < 0)
		sim_conn_log(c, "frame layer: %s", wc_strerror(rc));
	return rc;
}

/* --- lws glue --- */

static struct sim_conn *
conn_new(struct sim *s, struct lws *wsi)
{
	struct sim_conn	*c = xcalloc(1, sizeof(*c));

	c->s = s;
	c->wsi = wsi;
	c->id = ++s->next_conn_id;
	c->st = SIM_C_PREFIX;
	c->opened_at = now_s();
	c->txq_tail = &c->txq;
	wa_frame_reader_init(&c->rd, SIM_MAX_FRAME, false);
	wa_frame_writer_init(&c->wr, false);
	wa_noise_init(&c->hs, WA_NOISE_RESPONDER);
	c->next = s->conns;
	if (c->next != NULL)
		c->next->prevp = &c->next;
	c->prevp = &s->conns;
	s->conns = c;
	return c;
}

static void
conn_free(struct sim_conn *c)
{
	if (c->prevp != NULL) {
		*c->prevp = c->next;
		if (c->next != NULL)
			c->next->prevp = c->prevp;
	}
	sim_route_conn_closed(c);
	if (c->pair_dev != NULL && !c->pair_dev->signed_back) {
		sim_conn_log(c, "closed before pair-device-sign: device %u "
		    "forgotten", c->pair_dev->id);
		sim_pair_forget(c);
	}
	wa_frame_reader_release(&c->rd);
	wa_noise_release(&c->hs);
	if (c->have_t)
		wa_noise_transport_release(&c->t);
	txq_free(c);
	explicit_bzero(c, sizeof(*c));
	free(c);
}

static int
on_writeable(struct sim_conn *c)
{
	struct txmsg	*m;

	if (c->kill)
		return -1;
	if ((m = c->txq) != NULL) {
		int	 n = lws_write(c->wsi, m->data + LWS_PRE, m->len,
		    LWS_WRITE_BINARY);

		c->txq = m->next;
		if (c->txq == NULL)
			c->txq_tail = &c->txq;
		c->txq_len--;
		free(m);
		if (n < 0)
			return -1;
		if (c->txq != NULL || c->close_after) {
			lws_callback_on_writable(c->wsi);
		}
		return 0;
	}
	if (c->close_after) {
		lws_close_reason(c->wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
		return -1;
	}
	return 0;
}

static int
ws_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user,
    void *in, size_t len)
{
	struct sim	*s = lws_context_user(lws_get_context(wsi));
	struct pss	*pss = user;
	struct sim_conn	*c = pss != NULL ? pss->c : NULL;
	char		 tmp[128];
	int		 rc;

	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		if (s->stopping)
			return -1;
		c = pss->c = conn_new(s, wsi);
		if (lws_hdr_copy(wsi, tmp, sizeof(tmp), WSI_TOKEN_ORIGIN) > 0)
			snprintf(c->origin, sizeof(c->origin), "%s", tmp);
		if (lws_hdr_copy(wsi, tmp, sizeof(tmp), WSI_TOKEN_GET_URI) > 0)
			snprintf(c->path, sizeof(c->path), "%s", tmp);
		sim_conn_log(c, "WebSocket open: path %s, origin %s",
		    c->path[0] != '\0' ? c->path : "?", c->origin[0] != '\0' ?
		    c->origin : "(none)");
		note(c, "open");
		lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK,
		    (int)s->opt.handshake_timeout_s);
		return 0;
	case LWS_CALLBACK_RECEIVE:
		if (c == NULL || c->st == SIM_C_CLOSING)
			return 0;
		if (!lws_frame_is_binary(wsi)) {
			sim_conn_log(c, "text message of %zu bytes ignored", len);
			return 0;
		}
		if ((rc = on_receive(c, in, len)) != 0) {
			snprintf(c->last, sizeof(c->last), "closed: %s",
			    wc_strerror(rc));
			return -1;
		}
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		if (c == NULL)
			return 0;
		return on_writeable(c);
	case LWS_CALLBACK_CLOSED:
		if (c != NULL) {
			sim_conn_log(c, "closed (%s)", c->last);
			conn_free(c);
			pss->c = NULL;
		}
		return 0;
	case LWS_CALLBACK_WSI_DESTROY:
		if (c != NULL) {
			conn_free(c);
			pss->c = NULL;
		}
		return 0;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
	{ "wa", ws_cb, sizeof(struct pss), 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

int
sim_ws_chain(struct sim *s, enum sim_cert_fault f, struct buf *out)
{
	uint8_t			 rnd[2 * WA_CRYPTO_SIG_RANDOM_LEN];
	uint8_t			 other[WA_CRYPTO_KEY_LEN];
	uint8_t			 other_pub[WA_CRYPTO_KEY_LEN];
	uint64_t		 now = (uint64_t)now_s();
	uint64_t		 nb = now - 3600, na = now + 30 * 86400;
	struct wa_cert_spec	 in, lf;
	int			 rc;

	/* Serials as interop.md 1: intermediate 1, leaf 2. */
	sim_random(rnd, sizeof(rnd));
	sim_random(other, sizeof(other));
	wa_crypto_x25519_base(other, other_pub);
	memset(&in, 0, sizeof(in));
	memset(&lf, 0, sizeof(lf));
	in.serial = 1;
	in.issuer_serial = WA_CERT_ROOT_SERIAL;
	in.key = s->inter_pub;
	in.not_before_s = nb;
	in.not_after_s = na;
	in.signer_priv = s->root_priv;
	in.random = rnd;
	lf.serial = 2;
	lf.issuer_serial = 1;
	lf.key = s->static_pub;
	lf.not_before_s = nb;
	lf.not_after_s = na;
	lf.signer_priv = s->inter_priv;
	lf.random = rnd + WA_CRYPTO_SIG_RANDOM_LEN;
	switch (f) {
	case SIM_CERT_OK:
		break;
	case SIM_CERT_OTHER_ROOT:
		in.signer_priv = other;
		break;
	case SIM_CERT_LEAF_KEY:
		lf.key = other_pub;
		break;
	case SIM_CERT_EXPIRED:
		in.not_before_s = lf.not_before_s = now - 2 * 86400;
		in.not_after_s = lf.not_after_s = now - 86400;
		break;
	case SIM_CERT_ISSUER:
		lf.issuer_serial = 7;
		break;
	}
	rc = wa_cert_issue_spec(&in, &lf, out);
	wa_crypto_wipe(other, sizeof(other));
	wa_crypto_wipe(rnd, sizeof(rnd));
	return rc;
}

int
sim_ws_start(struct sim *s)
{
	struct lws_context_creation_info	 info;
	void					*loops[1] = { &s->loop };
	int					 rc;

	if ((rc = sim_ws_chain(s, SIM_CERT_OK, &s->chain)) != 0) {
		sim_log(s, "cannot issue the certificate chain: %s",
		    wc_strerror(rc));
		return rc;
	}
	memset(&info, 0, sizeof(info));
	info.options = LWS_SERVER_OPTION_LIBUV |
	    LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
	if (s->opt.tls_cert != NULL)
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	info.foreign_loops = loops;
	info.pcontext = &s->lws;
	info.user = s;
	info.port = CONTEXT_PORT_NO_LISTEN;
	/* Larger than a TLS record (16 KiB): lws 4.1 reads a record's rest
	 * left in OpenSSL only when the socket polls again, so an upload's
	 * body larger than the default 4 KiB buffer stalled after its first
	 * chunk (the media host's POST). */
	info.pt_serv_buf_size = 65536;
	if ((s->lws = lws_create_context(&info)) == NULL) {
		sim_log(s, "cannot create the libwebsockets context");
		return -ENOMEM;
	}
	memset(&info, 0, sizeof(info));
	info.port = s->opt.port;
	info.iface = s->opt.host;
	/* With IPv6 on, lws 4.1 binds an IPv4 address given as iface to every
	 * interface (the IPv6 any address); an IPv4 host therefore turns
	 * IPv6 off for this vhost, so the port is on that address only. */
	if (strchr(s->opt.host, ':') == NULL)
		info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
	info.protocols = protocols;
	info.vhost_name = "wachat-sim";
	info.ssl_cert_filepath = s->opt.tls_cert;
	info.ssl_private_key_filepath = s->opt.tls_key;
	if (s->opt.tls_cert != NULL)	/* lws reads it per vhost too */
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	if ((s->vhost = lws_create_vhost(s->lws, &info)) == NULL) {
		sim_log(s, "cannot listen on %s port %d", s->opt.host,
		    s->opt.port);
		return -EADDRINUSE;
	}
	s->port = lws_get_vhost_listen_port(s->vhost);
	return 0;
}

struct sim_conn *
sim_conn_by_id(struct sim *s, uint64_t id)
{
	struct sim_conn	*c;

	for (c = s->conns; c != NULL; c = c->next)
		if (c->id == id)
			return c;
	return NULL;
}

static const char *
state_name(enum sim_conn_state st)
{
	switch (st) {
	case SIM_C_PREFIX:
		return "header";
	case SIM_C_HELLO:
		return "hello";
	case SIM_C_FINISH:
		return "finish";
	case SIM_C_READY:
		return "ready";
	case SIM_C_CLOSING:
		return "closing";
	}
	return "?";
}

struct json_object *
sim_conn_json(const struct sim_conn *c)
{
	struct json_object	*o = json_object_new_object();
	char			 hex[2 * SIM_KEY_LEN + 1];

	json_object_object_add(o, "id", json_object_new_int64((int64_t)c->id));
	json_object_object_add(o, "state",
	    json_object_new_string(state_name(c->st)));
	json_object_object_add(o, "origin", json_object_new_string(c->origin));
	json_object_object_add(o, "path", json_object_new_string(c->path));
	json_object_object_add(o, "kind", json_object_new_string(
	    c->registration ? "registration" : c->username != 0 ? "login" :
	    "none"));
	json_object_object_add(o, "version",
	    json_object_new_string(c->version));
	json_object_object_add(o, "push_name",
	    json_object_new_string(c->push_name));
	json_object_object_add(o, "cert_fault",
	    json_object_new_string(sim_cert_fault_name(c->cert_fault)));
	if (c->st == SIM_C_READY || c->st == SIM_C_CLOSING) {
		sim_hex(c->client_static, SIM_KEY_LEN, hex);
		json_object_object_add(o, "noise_pub",
		    json_object_new_string(hex));
	}
	if (c->registration) {
		json_object_object_add(o, "refs",
		    json_object_new_int64(c->nrefs));
		json_object_object_add(o, "pair_device_acked",
		    json_object_new_boolean(c->pair_acked));
		json_object_object_add(o, "os", json_object_new_string(
		    c->reg.os));
		json_object_object_add(o, "registration_id",
		    json_object_new_int64(c->reg.reg_id));
		json_object_object_add(o, "signed_prekey_verifies",
		    json_object_new_boolean(c->reg.spk_sig_ok));
		sim_hex(c->reg.ident_pub, SIM_KEY_LEN, hex);
		json_object_object_add(o, "identity_pub",
		    json_object_new_string(hex));
	}
	if (c->username != 0) {
		char	 jid[64];

		snprintf(jid, sizeof(jid), "%" PRIu64 ":%u@s.whatsapp.net",
		    c->username, c->device);
		json_object_object_add(o, "jid", json_object_new_string(jid));
		json_object_object_add(o, "passive",
		    json_object_new_boolean(c->passive));
	}
	json_object_object_add(o, "authenticated",
	    json_object_new_boolean(c->authed));
	json_object_object_add(o, "frames_in",
	    json_object_new_int64((int64_t)c->frames_in));
	json_object_object_add(o, "frames_out",
	    json_object_new_int64((int64_t)c->frames_out));
	json_object_object_add(o, "unhandled",
	    json_object_new_int64((int64_t)c->unknown));
	json_object_object_add(o, "answered",
	    json_object_new_int64((int64_t)c->answered));
	if (c->registration)
		json_object_object_add(o, "reg_refreshes",
		    json_object_new_int64(c->refreshes));
	sim_offline_conn_json(c, o);
	json_object_object_add(o, "last", json_object_new_string(c->last));
	return o;
}
