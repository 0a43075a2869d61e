/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/pair.c -- the simulator as the primary phone: scanning a QR
 * code (protocol.md 6.2), pair-success with a signed device identity
 * (6.3-6.4), checking the companion's pair-device-sign (6.5), then the
 * 515 restart (6.6).
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <json-c/json.h>
#include <openssl/evp.h>

#include "adv.pb-c.h"
#include "base/arena.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "nodes.h"
#include "proto/pb.h"
#include "session.h"
#include "sim.h"
#include "base/xmalloc.h"

#define QR_PREFIX	"https://wa.me/settings/linked_devices#"

static const uint8_t	ACCOUNT_SIG_PREFIX[2] = { 6, 0 };
static const uint8_t	DEVICE_SIG_PREFIX[2] = { 6, 1 };

static void	forget_device(struct sim_account *, struct sim_device *);

/* Strict standard base64 (RFC 4648 section 4, padded) of exactly 32
 * bytes: 44 characters ending in one '='. */
static int
b64_32(const char *s, size_t n, uint8_t out[32])
{
	size_t	 len = 0;

	/* libsodium refuses bad characters, bad padding and non-zero
	 * trailing bits; 44 characters carry exactly 32 bytes. */
	if (n != 44 || sodium_base642bin(out, 32, s, n, NULL, &len, NULL,
	    sodium_base64_VARIANT_ORIGINAL) != 0 || len != 32)
		return -1;
	return 0;
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

/*
 * The phone's side once it has the companion's ADV secret (from a QR or a
 * link code): a new device of a, pair-success on c.  Fills res; returns
 * an HTTP-ish status.
 */
static int
pair_with(struct sim_conn *c, struct sim_account *a, const uint8_t adv[32],
    char platform, struct json_object *res)
{
	struct sim_device	*d;
	struct buf		 container = BUF_INIT;
	int			 rc;

	d = sim_device_add(a);
	memcpy(d->noise_pub, c->client_static, 32);
	memcpy(d->ident_pub, c->reg.ident_pub, 32);
	d->reg_id = c->reg.reg_id;
	d->spk_id = c->reg.spk_id;
	memcpy(d->spk_pub, c->reg.spk_pub, 32);
	memcpy(d->spk_sig, c->reg.spk_sig, 64);
	d->platform_id = platform;
	snprintf(d->os, sizeof(d->os), "%s", c->reg.os);
	d->full_sync = c->reg.full_sync;
	d->paired_at = (int64_t)time(NULL);
	if ((rc = make_identity(a, d, adv, &container)) != 0 ||
	    (rc = send_pair_success(c, a, d, &container)) != 0) {
		put_err(res, wc_strerror(rc));
		buf_release(&container);
		forget_device(a, d);
		return 500;
	}
	buf_release(&container);
	c->pair_acct = a;
	c->pair_dev = d;
	sim_conn_log(c, "paired by %s: sent pair-success for device %u "
	    "(iq %s)", a->pn, d->id, c->success_iq);
	snprintf(c->last, sizeof(c->last), "pair-success sent");
	json_object_object_add(res, "pair_success_iq",
	    json_object_new_string(c->success_iq));
	return 200;
}

/*
 * companion_reg_refresh bookkeeping for a scan of q on c: refuse a secret
 * seen before the last refresh; maybe refresh at random first.  Returns
 * 0 to go on, or an HTTP status with res filled.
 */
static int
check_refresh(struct sim *s, struct sim_conn *c, const struct qr *q,
    bool dry_run, struct json_object *res)
{
	unsigned	 i;
	uint32_t	 r;

	for (i = 0; i < c->nseen; i++)
		if (memcmp(c->seen_adv[i], q->adv, 32) == 0)
			break;
	if (i < c->nseen && c->seen_gen[i] < c->refreshes) {
		put_err(res, "the QR's ADV secret was retired by "
		    "companion_reg_refresh: scan the QR shown since");
		json_object_object_add(res, "retired",
		    json_object_new_boolean(1));
		return 409;
	}
	if (i == c->nseen) {
		if (c->nseen == 16) {
			memmove(c->seen_adv[0], c->seen_adv[1],
			    15 * sizeof(c->seen_adv[0]));
			memmove(&c->seen_gen[0], &c->seen_gen[1],
			    15 * sizeof(c->seen_gen[0]));
			c->nseen--;
		}
		memcpy(c->seen_adv[c->nseen], q->adv, 32);
		c->seen_gen[c->nseen++] = c->refreshes;
	}
	if (dry_run || s->refresh_pct == 0 || c->random_refresh_done)
		return 0;
	sim_random(&r, sizeof(r));
	if (r % 100 >= s->refresh_pct)
		return 0;
	c->random_refresh_done = true;
	if (sim_pair_reg_refresh(c, NULL) != 0)
		return 0;
	put_err(res, "companion_reg_refresh sent before this scan (knob "
	    "reg_refresh_pct): the QR's ADV secret is retired, scan the new "
	    "QR");
	json_object_object_add(res, "retired", json_object_new_boolean(1));
	return 409;
}

int
sim_pair_scan(struct sim *s, const char *text, const char *pn, bool dry_run,
    struct json_object *res)
{
	struct qr		 q;
	struct sim_conn		*c;
	struct sim_account	*a;
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
	json_object_object_add(res, "refreshes",
	    json_object_new_int64(c->refreshes));
	if ((rc = check_refresh(s, c, &q, dry_run, res)) != 0)
		return rc;
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

	return pair_with(c, a, q.adv, q.platform, res);
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
			sim_prekeys_release(d);
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
	if (c->s->drop_pair_sign) {
		/* The connection is lost as the answer comes: the server
		 * never accepts it (issue 15). */
		c->s->drop_pair_sign = false;
		sim_conn_log(c, "pair-success answered: dropping the "
		    "connection unaccepted (knob drop_pair_sign)");
		sim_pair_forget(c);
		sim_conn_drop(c);
		return 1;
	}
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
	(void)sim_route_devices_notify(c->s, c->pair_acct, c->pair_dev, "add");
	return 1;
}

/* --- companion_reg_refresh (protocol.md 6.2.1) --- */

int
sim_pair_reg_refresh(struct sim_conn *c, const char *child)
{
	struct arena	 a;
	struct wa_node	*n;
	char		 id[32], t[24];
	int		 rc;

	if (!c->registration || c->st != SIM_C_READY ||
	    (c->pair_dev != NULL && c->pair_dev->signed_back))
		return WC_ESTATE;
	if (child == NULL || child[0] == '\0')
		child = "companion_reg_refresh";
	arena_init(&a, 0);
	n = sn_new(&a, "notification");
	sim_conn_iq_id(c, id, sizeof(id));
	sn_attr(&a, n, "type", "companion_reg_refresh");
	sn_attr(&a, n, "id", id);
	sn_attr_jid(&a, n, "from", "", "s.whatsapp.net", 0);
	snprintf(t, sizeof(t), "%" PRId64, (int64_t)time(NULL));
	sn_attr(&a, n, "t", t);
	(void)sn_child(&a, n, child);
	rc = sim_conn_send_node(c, n);
	arena_release(&a);
	if (rc != 0)
		return rc;
	c->refreshes++;
	c->refreshed_at = (int64_t)time(NULL);
	sim_conn_log(c, "sent companion_reg_refresh <%s/> (id %s): ADV "
	    "secrets seen so far are retired", child, id);
	snprintf(c->last, sizeof(c->last), "companion_reg_refresh sent");
	return 0;
}

/* --- pairing with a phone-number code (protocol.md 6.7) --- */

#define LC_ITER		131072	/* PBKDF2 rounds (2 << 16) */
#define LC_BUNDLE_INFO	"link_code_pairing_key_bundle_encryption_key"

/* PBKDF2-HMAC-SHA256(code, salt) and AES-256-CTR of 32 bytes in to out. */
static int
lc_ctr(const char *code, const uint8_t salt[32], const uint8_t iv[16],
    const uint8_t in[32], uint8_t out[32])
{
	uint8_t		 key[32];
	EVP_CIPHER_CTX	*x;
	int		 n = 0, n2 = 0, ok;

	if (PKCS5_PBKDF2_HMAC(code, (int)strlen(code), salt, 32, LC_ITER,
	    EVP_sha256(), sizeof(key), key) != 1)
		return -1;
	if ((x = EVP_CIPHER_CTX_new()) == NULL)
		abort();
	ok = EVP_EncryptInit_ex(x, EVP_aes_256_ctr(), NULL, key, iv) == 1 &&
	    EVP_EncryptUpdate(x, out, &n, in, 32) == 1 &&
	    EVP_EncryptFinal_ex(x, out + n, &n2) == 1 && n + n2 == 32;
	EVP_CIPHER_CTX_free(x);
	wa_crypto_wipe(key, sizeof(key));
	return ok ? 0 : -1;
}

/* The PN user of the jid attribute of n into pn. */
static bool
lc_pn(const struct wa_node *n, char *pn, size_t len)
{
	const struct wa_val	*v = wa_node_attr(n, "jid");
	struct wa_str		 u;
	const char		*at;

	if (v == NULL)
		return false;
	if (v->kind == WA_VAL_JID)
		u = v->u.jid.user;
	else if (v->kind == WA_VAL_STR) {
		u = v->u.str;
		if ((at = memchr(u.p, '@', u.len)) != NULL)
			u.len = (size_t)(at - u.p);
	} else
		return false;
	if (u.len == 0 || u.len >= len)
		return false;
	memcpy(pn, u.p, u.len);
	pn[u.len] = '\0';
	return true;
}

static void
lc_answer_hello(struct sim_conn *c, const struct wa_node *n)
{
	struct arena	 a;
	struct wa_node	*r, *lc, *ref;
	struct wa_str	 id = sn_get(n, "id");
	char		 ids[64];

	snprintf(ids, sizeof(ids), "%.*s", (int)id.len, id.p);
	arena_init(&a, 0);
	r = sn_new(&a, "iq");
	sn_attr_jid(&a, r, "from", "", "s.whatsapp.net", 0);
	sn_attr(&a, r, "type", "result");
	sn_attr(&a, r, "id", ids);
	lc = sn_child(&a, r, "link_code_companion_reg");
	ref = sn_child(&a, lc, "link_code_pairing_ref");
	sn_bytes(&a, ref, c->lc_ref, strlen(c->lc_ref));
	(void)sim_conn_send_node(c, r);
	arena_release(&a);
}

/* companion_hello; returns NULL or why it is refused. */
static const char *
lc_hello(struct sim_conn *c, const struct wa_node *lc)
{
	const uint8_t	*p;
	size_t		 len;
	uint8_t		 r[18];

	if (!c->registration)
		return "not a registration connection";
	if (c->pair_dev != NULL)
		return "this connection is already being paired";
	if (!lc_pn(lc, c->lc_pn, sizeof(c->lc_pn)))
		return "no jid";
	if (!sim_node_bytes(sn_find(lc,
	    "link_code_pairing_wrapped_companion_ephemeral_pub"), &p, &len) ||
	    len != 80)
		return "the wrapped ephemeral key is not 80 bytes";
	memcpy(c->lc_wrapped, p, 80);
	if (!sim_node_bytes(sn_find(lc, "companion_server_auth_key_pub"), &p,
	    &len) || len != 32 || memcmp(p, c->client_static, 32) != 0)
		return "companion_server_auth_key_pub is not the noise key";
	if (!sim_node_bytes(sn_find(lc, "companion_platform_id"), &p, &len) ||
	    len != 1 || strchr("123456789cdef", p[0]) == NULL)
		return "companion_platform_id is not one of 1-9, c-f";
	c->lc_platform = (char)p[0];
	if (!sim_node_bytes(sn_find(lc, "companion_platform_display"), &p,
	    &len) || len < 5 || p[len - 1] != ')' ||
	    memchr(p, '(', len) == NULL)
		return "companion_platform_display is not 'Browser (OS)'";
	sim_random(r, sizeof(r));
	memcpy(c->lc_ref, "2@", 2);
	EVP_EncodeBlock((unsigned char *)c->lc_ref + 2, r, sizeof(r));
	c->lc_hello = true;
	c->lc_entered = false;
	return NULL;
}

/* companion_finish; returns NULL or why it is refused; *adv out. */
static const char *
lc_finish(struct sim_conn *c, const struct wa_node *lc, uint8_t adv[32])
{
	struct sim_account	*a = c->lc_acct;
	const uint8_t		*p, *ident;
	size_t			 len, ilen;
	uint8_t			 s1[32], s2[32], key[32], plain[96];
	uint8_t			 ikm[96];
	const char		*why = NULL;

	if (!c->lc_entered || a == NULL)
		return "no code entered on the phone yet";
	if (!sim_node_bytes(sn_find(lc, "link_code_pairing_ref"), &p, &len) ||
	    len != strlen(c->lc_ref) || memcmp(p, c->lc_ref, len) != 0)
		return "link_code_pairing_ref is not the one handed out";
	if (!sim_node_bytes(sn_find(lc, "companion_identity_public"), &ident,
	    &ilen) || ilen != 32 || memcmp(ident, c->reg.ident_pub, 32) != 0)
		return "companion_identity_public is not the registration's";
	if (!sim_node_bytes(sn_find(lc, "link_code_pairing_wrapped_key_bundle"),
	    &p, &len) || len != 32 + 12 + 96 + 16)
		return "the key bundle is not 156 bytes";
	if (wa_crypto_x25519(c->lc_eph_priv, c->lc_comp_eph, s1) != 0 ||
	    wa_crypto_hkdf(p, 32, s1, 32, (const uint8_t *)LC_BUNDLE_INFO,
	    strlen(LC_BUNDLE_INFO), key, sizeof(key)) != 0)
		return "key agreement failed";
	if (wa_crypto_gcm_open_once(key, p + 32, NULL, 0, p + 44, 96 + 16,
	    plain) != 0) {
		why = "the key bundle does not decrypt (wrong code entered?)";
		goto out;
	}
	if (memcmp(plain, c->reg.ident_pub, 32) != 0 ||
	    memcmp(plain + 32, a->keys.ident_pub, 32) != 0) {
		why = "the key bundle names other identity keys";
		goto out;
	}
	if (wa_crypto_x25519(a->keys.ident_priv, c->reg.ident_pub, s2) != 0) {
		why = "key agreement failed";
		goto out;
	}
	memcpy(ikm, s1, 32);
	memcpy(ikm + 32, s2, 32);
	memcpy(ikm + 64, plain + 64, 32);
	if (wa_crypto_hkdf(NULL, 0, ikm, sizeof(ikm),
	    (const uint8_t *)"adv_secret", 10, adv, 32) != 0)
		why = "key derivation failed";
out:
	wa_crypto_wipe(s1, sizeof(s1));
	wa_crypto_wipe(s2, sizeof(s2));
	wa_crypto_wipe(key, sizeof(key));
	wa_crypto_wipe(ikm, sizeof(ikm));
	wa_crypto_wipe(plain, sizeof(plain));
	return why;
}

int
sim_pair_handle_link_code(struct sim_conn *c, const struct wa_node *n)
{
	const struct wa_node	*lc = sn_find(n, "link_code_companion_reg");
	struct wa_str		 stage;
	const char		*why;
	uint8_t			 adv[32];

	if (lc == NULL || !wa_str_eqc(sn_get(n, "type"), "set"))
		return 0;
	stage = sn_get(lc, "stage");
	if (wa_str_eqc(stage, "companion_hello")) {
		if ((why = lc_hello(c, lc)) != NULL) {
			sim_conn_log(c, "link code: companion_hello refused: %s",
			    why);
			sim_iq_error(c, n, 400, "bad-request");
			return 1;
		}
		sim_conn_log(c, "link code: companion_hello for %s (platform "
		    "%c), ref %s", c->lc_pn, c->lc_platform, c->lc_ref);
		snprintf(c->last, sizeof(c->last), "link code requested");
		lc_answer_hello(c, n);
		return 1;
	}
	if (wa_str_eqc(stage, "companion_finish")) {
		struct json_object	*res;
		int			 st;

		if ((why = lc_finish(c, lc, adv)) != NULL) {
			sim_conn_log(c, "link code: companion_finish refused: "
			    "%s", why);
			snprintf(c->last, sizeof(c->last), "link code refused: "
			    "%s", why);
			sim_iq_error(c, n, 400, "bad-request");
			return 1;
		}
		sim_iq_result(c, n);
		sim_conn_log(c, "link code: companion_finish verified");
		res = json_object_new_object();
		st = pair_with(c, c->lc_acct, adv, c->lc_platform, res);
		if (st != 200)
			sim_conn_log(c, "link code: pairing failed: %s",
			    json_object_to_json_string(res));
		json_object_put(res);
		wa_crypto_wipe(adv, sizeof(adv));
		return 1;
	}
	sim_conn_log(c, "link code: unknown stage %.*s", (int)stage.len,
	    stage.p);
	sim_iq_error(c, n, 400, "bad-request");
	return 1;
}

/* Send the primary's link_code_companion_reg notification (6.7 step 3). */
static int
lc_send_primary(struct sim_conn *c, const uint8_t wrapped[80])
{
	struct arena	 a;
	struct wa_node	*n, *lc, *ch;
	char		 id[32], t[24];
	int		 rc;

	arena_init(&a, 0);
	n = sn_new(&a, "notification");
	sim_conn_iq_id(c, id, sizeof(id));
	sn_attr(&a, n, "type", "link_code_companion_reg");
	sn_attr(&a, n, "id", id);
	sn_attr_jid(&a, n, "from", "", "s.whatsapp.net", 0);
	snprintf(t, sizeof(t), "%" PRId64, (int64_t)time(NULL));
	sn_attr(&a, n, "t", t);
	lc = sn_child(&a, n, "link_code_companion_reg");
	sn_attr(&a, lc, "stage", "primary_hello");
	ch = sn_child(&a, lc, "link_code_pairing_ref");
	sn_bytes(&a, ch, c->lc_ref, strlen(c->lc_ref));
	ch = sn_child(&a, lc, "link_code_pairing_wrapped_primary_ephemeral_pub");
	sn_bytes(&a, ch, wrapped, 80);
	ch = sn_child(&a, lc, "primary_identity_pub");
	sn_bytes(&a, ch, c->lc_acct->keys.ident_pub, 32);
	rc = sim_conn_send_node(c, n);
	arena_release(&a);
	return rc;
}

int
sim_pair_enter_code(struct sim *s, const char *code, const char *pn,
    struct json_object *res)
{
	struct sim_conn		*c;
	struct sim_account	*a;
	char			 norm[9];
	uint8_t			 wrapped[80], pub[32];
	size_t			 i, n = 0;

	for (i = 0; code != NULL && code[i] != '\0'; i++) {
		char	 ch = code[i];

		if (ch == '-' || ch == ' ')
			continue;
		if (ch >= 'a' && ch <= 'z')
			ch = (char)(ch - 'a' + 'A');
		if (n == 8 || strchr("123456789ABCDEFGHJKLMNPQRSTVWXYZ", ch) ==
		    NULL || ch == '\0') {
			put_err(res, "the code is not 8 characters of "
			    "123456789ABCDEFGHJKLMNPQRSTVWXYZ");
			return 422;
		}
		norm[n++] = ch;
	}
	norm[n] = '\0';
	if (n != 8) {
		put_err(res, "the code is not 8 characters of "
		    "123456789ABCDEFGHJKLMNPQRSTVWXYZ");
		return 422;
	}
	for (c = s->conns; c != NULL; c = c->next)
		if (c->registration && c->st == SIM_C_READY && c->lc_hello &&
		    !c->lc_entered && (pn == NULL || pn[0] == '\0' ||
		    strcmp(pn, c->lc_pn) == 0))
			break;
	if (c == NULL) {
		put_err(res, "no connection is waiting for a link code"
		    " (companion_hello) for this number");
		return 404;
	}
	json_object_object_add(res, "connection",
	    json_object_new_int64((int64_t)c->id));
	json_object_object_add(res, "pn", json_object_new_string(c->lc_pn));
	if ((a = sim_account_by_pn(s, c->lc_pn)) == NULL || a->contact) {
		put_err(res, "no account has the number the companion gave");
		return 404;
	}
	/* Unwrap the companion's ephemeral key with the code. */
	if (lc_ctr(norm, c->lc_wrapped, c->lc_wrapped + 32, c->lc_wrapped + 48,
	    c->lc_comp_eph) != 0) {
		put_err(res, "PBKDF2 or AES-CTR failed");
		return 500;
	}
	/* The phone's ephemeral key, wrapped with the same code. */
	sim_random(c->lc_eph_priv, 32);
	wa_crypto_x25519_base(c->lc_eph_priv, pub);
	sim_random(wrapped, 48);
	if (lc_ctr(norm, wrapped, wrapped + 32, pub, wrapped + 48) != 0) {
		put_err(res, "PBKDF2 or AES-CTR failed");
		return 500;
	}
	c->lc_acct = a;
	c->lc_entered = true;
	if (lc_send_primary(c, wrapped) != 0) {
		c->lc_entered = false;
		put_err(res, "could not send the notification");
		return 500;
	}
	sim_conn_log(c, "link code %s entered on %s's phone: sent "
	    "link_code_companion_reg", norm, a->pn);
	snprintf(c->last, sizeof(c->last), "link code entered");
	json_object_object_add(res, "ref", json_object_new_string(c->lc_ref));
	json_object_object_add(res, "entered", json_object_new_boolean(1));
	return 200;
}
