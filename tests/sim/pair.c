/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/pair.c -- the simulator as the primary phone: scanning a QR
 * code (protocol.md 6.2), pair-success with a signed device identity
 * (6.3-6.4), checking the companion's pair-device-sign (6.5), then the
 * 515 restart (6.6).
 */
#include "compat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "adv.pb-c.h"
#include "arena.h"
#include "crypto.h"
#include "err.h"
#include "nodes.h"
#include "pb.h"
#include "session.h"
#include "sim.h"
#include "xmalloc.h"

#define QR_PREFIX	"https://wa.me/settings/linked_devices#"

static const uint8_t	ACCOUNT_SIG_PREFIX[2] = { 6, 0 };
static const uint8_t	DEVICE_SIG_PREFIX[2] = { 6, 1 };

static void	forget_device(struct sim_account *, struct sim_device *);

static int
b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Strict standard base64 (RFC 4648 section 4, padded) of exactly 32
 * bytes: 44 characters ending in one '='. */
static int
b64_32(const char *s, size_t n, uint8_t out[32])
{
	uint32_t	 acc = 0;
	size_t		 i, o = 0;
	int		 bits = 0;

	if (n != 44 || s[43] != '=')
		return -1;
	for (i = 0; i < 43; i++) {
		int	 v = b64val((unsigned char)s[i]);

		if (v < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o < 32)
				out[o++] = (uint8_t)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	/* 43 characters carry 258 bits: the last 2 must be zero. */
	return o == 32 && acc == 0 ? 0 : -1;
}

struct qr {
	char		 ref[64];
	uint8_t		 noise[32];
	uint8_t		 ident[32];
	uint8_t		 adv[32];
	char		 platform;
	bool		 prefixed;
};

/* Parse the QR text; returns NULL or why it is not a QR of 6.2. */
static const char *
qr_parse(const char *text, struct qr *q)
{
	const char	*f[5], *p = text;
	size_t		 flen[5], n = 0, len;

	memset(q, 0, sizeof(*q));
	len = strlen(p);
	while (len > 0 && (p[len - 1] == '\n' || p[len - 1] == '\r' ||
	    p[len - 1] == ' '))
		len--;
	if (len >= strlen(QR_PREFIX) && strncmp(p, QR_PREFIX,
	    strlen(QR_PREFIX)) == 0) {
		q->prefixed = true;
		p += strlen(QR_PREFIX);
		len -= strlen(QR_PREFIX);
	}
	f[0] = p;
	for (size_t i = 0; i < len; i++)
		if (p[i] == ',') {
			if (n >= 4)
				return "more than 5 comma-separated fields";
			flen[n] = (size_t)(p + i - f[n]);
			f[++n] = p + i + 1;
		}
	if (n != 4)
		return "fewer than 5 comma-separated fields";
	flen[4] = (size_t)(p + len - f[4]);
	if (flen[0] < 3 || flen[0] >= sizeof(q->ref) || f[0][0] != '2' ||
	    f[0][1] != '@')
		return "the ref does not look like 2@...";
	memcpy(q->ref, f[0], flen[0]);
	if (b64_32(f[1], flen[1], q->noise) != 0)
		return "the noise key is not base64 of 32 bytes";
	if (b64_32(f[2], flen[2], q->ident) != 0)
		return "the identity key is not base64 of 32 bytes";
	if (b64_32(f[3], flen[3], q->adv) != 0)
		return "the ADV secret is not base64 of 32 bytes";
	if (flen[4] != 1 || strchr("123456789cdef", f[4][0]) == NULL)
		return "the platform id is not one of 1-9, c, d, e, f";
	q->platform = f[4][0];
	return NULL;
}

static void
put_hex(struct json_object *o, const char *key, const uint8_t *p,
    size_t len)
{
	char	 hex[2 * 64 + 1];

	sim_hex(p, len, hex);
	json_object_object_add(o, key, json_object_new_string(hex));
}

static void
put_err(struct json_object *res, const char *msg)
{
	json_object_object_add(res, "error", json_object_new_string(msg));
}

/* The registering connection that showed ref, or NULL; *idx its index. */
static struct sim_conn *
find_ref(struct sim *s, const char *ref, unsigned *idx)
{
	struct sim_conn	*c;
	unsigned	 i;

	for (c = s->conns; c != NULL; c = c->next)
		if (c->registration && c->st == SIM_C_READY)
			for (i = 0; i < c->nrefs; i++)
				if (strcmp(c->refs[i], ref) == 0) {
					*idx = i;
					return c;
				}
	return NULL;
}

/* Pack m into b (appending). */
static void
pack(const ProtobufCMessage *m, struct buf *b)
{
	size_t	 n = protobuf_c_message_get_packed_size(m);

	buf_reserve(b, n);
	b->len += protobuf_c_message_pack(m, b->p + b->len);
}

/*
 * Build the device identity for d of account a (protocol.md 6.4, from the
 * phone's side): d->identity = ADVSignedDeviceIdentity with the account
 * key, and *container = ADVSignedDeviceIdentityHMAC keyed with adv.
 */
static int
make_identity(struct sim_account *a, struct sim_device *d,
    const uint8_t adv[32], struct buf *container)
{
	Wa__ADVDeviceIdentity		 di = WA__ADVDEVICE_IDENTITY__INIT;
	Wa__ADVSignedDeviceIdentity	 sdi =
	    WA__ADVSIGNED_DEVICE_IDENTITY__INIT;
	Wa__ADVSignedDeviceIdentityHMAC	 h =
	    WA__ADVSIGNED_DEVICE_IDENTITY_HMAC__INIT;
	struct buf			 details = BUF_INIT, msg = BUF_INIT;
	uint8_t				 rnd[WA_CRYPTO_SIG_RANDOM_LEN];
	uint8_t				 sig[WA_CRYPTO_SIG_LEN];
	uint8_t				 mac[WA_CRYPTO_HASH_LEN];
	uint32_t			 raw;
	int				 rc;

	sim_random(&raw, sizeof(raw));
	di.has_rawid = 1;
	di.rawid = raw;
	di.has_timestamp = 1;
	di.timestamp = (uint64_t)d->paired_at;
	di.has_keyindex = 1;
	di.keyindex = d->key_index;
	di.has_accounttype = 1;
	di.accounttype = WA__ADVENCRYPTION_TYPE__E2EE;
	di.has_devicetype = 1;
	di.devicetype = WA__ADVENCRYPTION_TYPE__E2EE;
	pack(&di.base, &details);
	buf_append(&msg, ACCOUNT_SIG_PREFIX, 2);
	buf_append(&msg, details.p, details.len);
	buf_append(&msg, d->ident_pub, 32);
	sim_random(rnd, sizeof(rnd));
	rc = wa_crypto_xeddsa_sign(a->keys.ident_priv, msg.p, msg.len, rnd,
	    sig);
	if (rc != 0)
		goto out;
	sdi.has_details = 1;
	sdi.details.data = details.p;
	sdi.details.len = details.len;
	sdi.has_accountsignaturekey = 1;
	sdi.accountsignaturekey.data = a->keys.ident_pub;
	sdi.accountsignaturekey.len = 32;
	sdi.has_accountsignature = 1;
	sdi.accountsignature.data = sig;
	sdi.accountsignature.len = sizeof(sig);
	d->identity.len = 0;
	pack(&sdi.base, &d->identity);
	wa_crypto_hmac_sha256(adv, 32, d->identity.p, d->identity.len, mac);
	h.has_details = 1;
	h.details.data = d->identity.p;
	h.details.len = d->identity.len;
	h.has_hmac = 1;
	h.hmac.data = mac;
	h.hmac.len = sizeof(mac);
	pack(&h.base, container);
out:
	buf_release(&details);
	buf_release(&msg);
	return rc;
}

static int
send_pair_success(struct sim_conn *c, struct sim_account *a,
    struct sim_device *d, const struct buf *container)
{
	struct arena	 ar;
	struct wa_node	*iq, *ps, *ch;
	char		 t[24];
	int		 rc;

	arena_init(&ar, 0);
	sim_conn_iq_id(c, c->success_iq, sizeof(c->success_iq));
	iq = sn_new(&ar, "iq");
	sn_attr_jid(&ar, iq, "from", "", "s.whatsapp.net", 0);
	sn_attr(&ar, iq, "type", "set");
	sn_attr(&ar, iq, "id", c->success_iq);
	sn_attr(&ar, iq, "xmlns", "md");
	snprintf(t, sizeof(t), "%" PRId64, d->paired_at);
	sn_attr(&ar, iq, "t", t);
	ps = sn_child(&ar, iq, "pair-success");
	ch = sn_child(&ar, ps, "device-identity");
	sn_bytes(&ar, ch, container->p, container->len);
	ch = sn_child(&ar, ps, "platform");
	sn_attr(&ar, ch, "name", "smba");
	ch = sn_child(&ar, ps, "device");
	sn_attr_jid(&ar, ch, "jid", a->pn, "s.whatsapp.net",
	    (uint16_t)d->id);
	sn_attr_jid(&ar, ch, "lid", a->lid, "lid", (uint16_t)d->id);
	rc = sim_conn_send_node(c, iq);
	arena_release(&ar);
	return rc;
}

int
sim_pair_scan(struct sim *s, const char *text, const char *pn, bool dry_run,
    struct json_object *res)
{
	struct qr		 q;
	struct sim_conn		*c;
	struct sim_account	*a;
	struct sim_device	*d;
	struct buf		 container = BUF_INIT;
	const char		*why;
	unsigned		 idx = 0;
	char			 jid[64], pid[2];
	int			 rc;

	if ((why = qr_parse(text, &q)) != NULL) {
		put_err(res, why);
		return 422;
	}
	json_object_object_add(res, "ref", json_object_new_string(q.ref));
	json_object_object_add(res, "prefixed",
	    json_object_new_boolean(q.prefixed));
	put_hex(res, "noise_pub", q.noise, 32);
	put_hex(res, "identity_pub", q.ident, 32);
	put_hex(res, "adv_secret", q.adv, 32);
	pid[0] = q.platform;
	pid[1] = '\0';
	json_object_object_add(res, "platform_id", json_object_new_string(pid));
	if ((c = find_ref(s, q.ref, &idx)) == NULL) {
		put_err(res, "no registering connection shows this ref");
		return 404;
	}
	json_object_object_add(res, "connection",
	    json_object_new_int64((int64_t)c->id));
	json_object_object_add(res, "ref_index", json_object_new_int64(idx));
	if (memcmp(q.noise, c->client_static, 32) != 0) {
		put_err(res, "the QR's noise key is not the handshake's static "
		    "key");
		return 409;
	}
	if (memcmp(q.ident, c->reg.ident_pub, 32) != 0) {
		put_err(res, "the QR's identity key is not the registration's "
		    "eIdent");
		return 409;
	}
	if (c->pair_dev != NULL) {
		put_err(res, "this connection is already being paired");
		return 409;
	}
	a = pn != NULL && pn[0] != '\0' ? sim_account_by_pn(s, pn) :
	    sim_account_default(s);
	if (a == NULL || a->contact) {
		put_err(res, "no such account to pair with (create one first)");
		return 404;
	}
	json_object_object_add(res, "account", json_object_new_string(a->pn));
	snprintf(jid, sizeof(jid), "%s:%u@s.whatsapp.net", a->pn,
	    a->next_device);
	json_object_object_add(res, "device_jid", json_object_new_string(jid));
	snprintf(jid, sizeof(jid), "%s:%u@lid", a->lid, a->next_device);
	json_object_object_add(res, "device_lid", json_object_new_string(jid));
	json_object_object_add(res, "paired",
	    json_object_new_boolean(!dry_run));
	if (dry_run)
		return 200;

	d = sim_device_add(a);
	memcpy(d->noise_pub, q.noise, 32);
	memcpy(d->ident_pub, q.ident, 32);
	d->reg_id = c->reg.reg_id;
	d->spk_id = c->reg.spk_id;
	memcpy(d->spk_pub, c->reg.spk_pub, 32);
	memcpy(d->spk_sig, c->reg.spk_sig, 64);
	d->platform_id = q.platform;
	snprintf(d->os, sizeof(d->os), "%s", c->reg.os);
	d->paired_at = (int64_t)time(NULL);
	if ((rc = make_identity(a, d, q.adv, &container)) != 0 ||
	    (rc = send_pair_success(c, a, d, &container)) != 0) {
		put_err(res, wc_strerror(rc));
		buf_release(&container);
		return 500;
	}
	buf_release(&container);
	c->pair_acct = a;
	c->pair_dev = d;
	sim_conn_log(c, "scanned by %s: sent pair-success for device %u "
	    "(iq %s)", a->pn, d->id, c->success_iq);
	snprintf(c->last, sizeof(c->last), "pair-success sent");
	json_object_object_add(res, "pair_success_iq",
	    json_object_new_string(c->success_iq));
	return 200;
}

void
sim_pair_forget(struct sim_conn *c)
{
	forget_device(c->pair_acct, c->pair_dev);
	c->pair_dev = NULL;
}

static void
forget_device(struct sim_account *a, struct sim_device *d)
{
	struct sim_device	**pp;

	for (pp = &a->devices; *pp != NULL; pp = &(*pp)->next)
		if (*pp == d) {
			*pp = d->next;
			buf_release(&d->identity);
			free(d);
			return;
		}
}

/* Check the companion's ADVSignedDeviceIdentity (6.5); NULL if good. */
static const char *
check_sign(struct sim_conn *c, const struct wa_node *di)
{
	struct sim_device		*d = c->pair_dev;
	ProtobufCMessage		*m = NULL, *mine = NULL;
	Wa__ADVSignedDeviceIdentity	*got, *sent;
	struct buf			 msg = BUF_INIT;
	const char			*why = NULL;

	if (di->content.kind != WA_VAL_BYTES &&
	    di->content.kind != WA_VAL_STR)
		return "device-identity has no bytes";
	if (wa_pb_unpack(&wa__advsigned_device_identity__descriptor,
	    (const uint8_t *)di->content.u.str.p, di->content.u.str.len,
	    &m) != 0)
		return "device-identity is not an ADVSignedDeviceIdentity";
	if (wa_pb_unpack(&wa__advsigned_device_identity__descriptor,
	    d->identity.p, d->identity.len, &mine) != 0) {
		why = "internal: own identity does not unpack";
		goto out;
	}
	got = (Wa__ADVSignedDeviceIdentity *)m;
	sent = (Wa__ADVSignedDeviceIdentity *)mine;
	if (!got->has_details || got->details.len != sent->details.len ||
	    memcmp(got->details.data, sent->details.data,
	    sent->details.len) != 0) {
		why = "details differ from those sent";
		goto out;
	}
	if (got->has_accountsignaturekey && got->accountsignaturekey.len > 0)
		sim_conn_log(c, "note: the reply keeps accountSignatureKey");
	if (!got->has_devicesignature || got->devicesignature.len != 64) {
		why = "no 64-byte deviceSignature";
		goto out;
	}
	buf_append(&msg, DEVICE_SIG_PREFIX, 2);
	buf_append(&msg, got->details.data, got->details.len);
	buf_append(&msg, d->ident_pub, 32);
	buf_append(&msg, c->pair_acct->keys.ident_pub, 32);
	if (wa_crypto_xeddsa_verify(d->ident_pub, msg.p, msg.len,
	    got->devicesignature.data) != 0) {
		why = "deviceSignature does not verify";
		goto out;
	}
	/* Keep the whole identity, account key and device signature. */
	sent->has_devicesignature = 1;
	sent->devicesignature = got->devicesignature;
	d->identity.len = 0;
	pack(mine, &d->identity);
	/* The bytes belong to got: do not let mine free them too. */
	sent->has_devicesignature = 0;
	sent->devicesignature.data = NULL;
	sent->devicesignature.len = 0;
out:
	buf_release(&msg);
	if (mine != NULL)
		protobuf_c_message_free_unpacked(mine, NULL);
	protobuf_c_message_free_unpacked(m, NULL);
	return why;
}

/* True when s is absent or the decimal k. */
static bool
key_index_is(struct wa_str s, uint32_t k)
{
	char	 tmp[16];

	if (s.len == 0)
		return true;
	if (s.len >= sizeof(tmp))
		return false;
	memcpy(tmp, s.p, s.len);
	tmp[s.len] = '\0';
	return strtoul(tmp, NULL, 10) == k;
}

int
sim_pair_handle_reply(struct sim_conn *c, const struct wa_node *n)
{
	const struct wa_node	*pds, *di;
	const char		*why;
	struct wa_str		 type = sn_get(n, "type");

	if (c->success_iq[0] == '\0' || c->pair_dev == NULL ||
	    !wa_str_eqc(sn_get(n, "id"), c->success_iq))
		return 0;
	if (!wa_str_eqc(type, "result")) {
		sim_conn_log(c, "pair-success refused by the companion "
		    "(type %.*s)", (int)type.len, type.p);
		snprintf(c->last, sizeof(c->last), "pair-success refused");
		forget_device(c->pair_acct, c->pair_dev);
		c->pair_dev = NULL;
		return 1;
	}
	if ((pds = sn_find(n, "pair-device-sign")) == NULL ||
	    (di = sn_find(pds, "device-identity")) == NULL)
		why = "no pair-device-sign/device-identity";
	else if (!key_index_is(sn_get(di, "key-index"),
	    c->pair_dev->key_index))
		why = "key-index differs";
	else
		why = check_sign(c, di);
	if (why != NULL) {
		sim_conn_log(c, "pair-device-sign rejected: %s", why);
		snprintf(c->last, sizeof(c->last), "pair-device-sign "
		    "rejected: %s", why);
		forget_device(c->pair_acct, c->pair_dev);
		c->pair_dev = NULL;
		(void)sim_conn_stream_error(c, 401);
		return 1;
	}
	c->pair_dev->signed_back = true;
	sim_conn_log(c, "pair-device-sign verified: %s:%u paired; sending "
	    "515", c->pair_acct->pn, c->pair_dev->id);
	(void)sim_conn_stream_error(c, 515);
	snprintf(c->last, sizeof(c->last), "paired, 515 sent");
	return 1;
}
