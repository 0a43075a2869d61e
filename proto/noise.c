/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/noise.c -- the XX handshake for both roles and the transport
 * cipher.  See noise.h; the operations are protocol.md 2.2's.
 */
#include "base/compat.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <protobuf-c/protobuf-c.h>

#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/noise.h"
#include "proto/pb.h"
#include "wa6.pb-c.h"
#include "base/xmalloc.h"

/* nonce(n) = 8 zero bytes ‖ n as uint32 BE. */
static void
nonce(uint8_t out[WA_CRYPTO_GCM_NONCE_LEN], uint32_t n)
{
	memset(out, 0, 8);
	out[8] = (uint8_t)(n >> 24);
	out[9] = (uint8_t)(n >> 16);
	out[10] = (uint8_t)(n >> 8);
	out[11] = (uint8_t)n;
}

static void
mix_hash(struct wa_noise *hs, const uint8_t *p, size_t len)
{
	wa_crypto_sha256_pair(hs->h, sizeof(hs->h), p, len, hs->h);
}

/* MixKey(ikm): ck, k = HKDF(salt ck, ikm, info "", 64); n = 0. */
static int
mix_key(struct wa_noise *hs, const uint8_t ikm[WA_CRYPTO_KEY_LEN])
{
	uint8_t	 okm[2 * WA_CRYPTO_KEY_LEN];
	int	 rc;

	if ((rc = wa_crypto_hkdf(hs->ck, sizeof(hs->ck), ikm,
	    WA_CRYPTO_KEY_LEN, NULL, 0, okm, sizeof(okm))) != 0)
		return rc;
	memcpy(hs->ck, okm, WA_CRYPTO_KEY_LEN);
	memcpy(hs->k, okm + WA_CRYPTO_KEY_LEN, WA_CRYPTO_KEY_LEN);
	hs->n = 0;
	wa_crypto_wipe(okm, sizeof(okm));
	return 0;
}

/* MixKey(X25519(priv, pub)). */
static int
mix_dh(struct wa_noise *hs, const uint8_t *priv, const uint8_t *pub)
{
	uint8_t	 dh[WA_CRYPTO_KEY_LEN];
	int	 rc;

	if ((rc = wa_crypto_x25519(priv, pub, dh)) == 0)
		rc = mix_key(hs, dh);
	wa_crypto_wipe(dh, sizeof(dh));
	return rc;
}

/* EncryptAndHash: out[0..len + 16) = AEAD(k, n++, h, p); MixHash(out). */
static int
encrypt_hash(struct wa_noise *hs, const uint8_t *p, size_t len, uint8_t *out)
{
	uint8_t	 iv[WA_CRYPTO_GCM_NONCE_LEN];
	int	 rc;

	nonce(iv, hs->n++);
	if ((rc = wa_crypto_gcm_rekey(&hs->aead, hs->k, true)) != 0 ||
	    (rc = wa_crypto_gcm_seal(&hs->aead, iv, hs->h, sizeof(hs->h), p,
	    len, out)) != 0)
		return rc;
	mix_hash(hs, out, len + WA_CRYPTO_GCM_TAG_LEN);
	return 0;
}

/* DecryptAndHash: out[0..len - 16) = AEAD-open(k, n++, h, c); MixHash(c). */
static int
decrypt_hash(struct wa_noise *hs, const uint8_t *c, size_t len, uint8_t *out)
{
	uint8_t	 iv[WA_CRYPTO_GCM_NONCE_LEN];
	int	 rc;

	nonce(iv, hs->n++);
	if ((rc = wa_crypto_gcm_rekey(&hs->aead, hs->k, false)) != 0 ||
	    (rc = wa_crypto_gcm_open(&hs->aead, iv, hs->h, sizeof(hs->h), c,
	    len, out)) != 0)
		return rc;
	mix_hash(hs, c, len);
	return 0;
}

/* Check role and step before a call; a failed state stays failed. */
static int
expect(const struct wa_noise *hs, enum wa_noise_role role,
    enum wa_noise_step step)
{
	return hs->role == role && hs->step == step ? 0 : WC_ESTATE;
}

/* Any error kills the handshake: its hash and keys are out of step. */
static int
fail(struct wa_noise *hs, int rc)
{
	wa_noise_release(hs);
	return rc;
}

static void
pack(const Wa__HandshakeMessage *m, struct buf *out)
{
	size_t	 n = wa__handshake_message__get_packed_size(m);

	buf_reserve(out, n);
	out->len += wa__handshake_message__pack(m, out->p + out->len);
}

static int
unpack(const uint8_t *p, size_t len, Wa__HandshakeMessage **out)
{
	ProtobufCMessage	*m;
	int			 rc;

	if ((rc = wa_pb_unpack(&wa__handshake_message__descriptor, p, len,
	    &m)) != 0)
		return rc;
	*out = (Wa__HandshakeMessage *)m;
	return 0;
}

void
wa_noise_init(struct wa_noise *hs, enum wa_noise_role role)
{
	memset(hs, 0, sizeof(*hs));
	hs->role = role;
	hs->step = WA_NOISE_STEP_HELLO;
	/* 32 bytes exactly, so used as is rather than hashed. */
	memcpy(hs->h, WA_NOISE_PATTERN, sizeof(hs->h));
	memcpy(hs->ck, hs->h, sizeof(hs->ck));
	memcpy(hs->k, hs->h, sizeof(hs->k));
	mix_hash(hs, (const uint8_t *)WA_NOISE_PROLOGUE, WA_NOISE_PROLOGUE_LEN);
}

int
wa_noise_client_hello(struct wa_noise *hs,
    const uint8_t e_priv[WA_CRYPTO_KEY_LEN], struct buf *out)
{
	Wa__HandshakeMessage			 m =
	    WA__HANDSHAKE_MESSAGE__INIT;
	Wa__HandshakeMessage__ClientHello	 ch =
	    WA__HANDSHAKE_MESSAGE__CLIENT_HELLO__INIT;
	uint8_t					 e_pub[WA_CRYPTO_KEY_LEN];
	int					 rc;

	if ((rc = expect(hs, WA_NOISE_INITIATOR, WA_NOISE_STEP_HELLO)) != 0)
		return fail(hs, rc);
	memcpy(hs->e_priv, e_priv, sizeof(hs->e_priv));
	wa_crypto_x25519_base(e_priv, e_pub);
	mix_hash(hs, e_pub, sizeof(e_pub));

	ch.has_ephemeral = 1;
	ch.ephemeral.data = e_pub;
	ch.ephemeral.len = sizeof(e_pub);
	m.clienthello = &ch;
	pack(&m, out);
	hs->step = WA_NOISE_STEP_SERVER;
	return 0;
}

/* The ciphertext lengths a peer's message must have (protocol.md 2.3). */
static int
check_static(const ProtobufCBinaryData *c, protobuf_c_boolean has)
{
	return has && c->len == WA_NOISE_STATIC_CT_LEN ? 0 : WC_EHSSTATIC;
}

static int
check_payload(const ProtobufCBinaryData *c, protobuf_c_boolean has)
{
	if (!has || c->len < WA_CRYPTO_GCM_TAG_LEN)
		return WC_EHSPAYLOAD;
	return c->len - WA_CRYPTO_GCM_TAG_LEN > WA_CRYPTO_GCM_MAX_LEN ?
	    WC_ETOOBIG : 0;
}

/*
 * DecryptAndHash a payload, appending its plaintext to out only if it
 * authenticates.
 */
static int
decrypt_hash_buf(struct wa_noise *hs, const ProtobufCBinaryData *c,
    struct buf *out)
{
	size_t	 n = c->len - WA_CRYPTO_GCM_TAG_LEN;
	int	 rc;

	buf_reserve(out, n);
	if ((rc = decrypt_hash(hs, c->data, c->len, out->p + out->len)) != 0)
		return rc;
	out->len += n;
	return 0;
}

int
wa_noise_read_server_hello(struct wa_noise *hs, const uint8_t *p, size_t len,
    uint8_t server_static[WA_CRYPTO_KEY_LEN], struct buf *cert)
{
	Wa__HandshakeMessage			*m = NULL;
	Wa__HandshakeMessage__ServerHello	*sh;
	uint8_t					 rs[WA_CRYPTO_KEY_LEN];
	int					 rc;

	if ((rc = expect(hs, WA_NOISE_INITIATOR, WA_NOISE_STEP_SERVER)) != 0)
		goto out;
	if ((rc = unpack(p, len, &m)) != 0)
		goto out;
	if ((sh = m->serverhello) == NULL) {
		rc = WC_EHSMSG;
		goto out;
	}
	if (!sh->has_ephemeral || sh->ephemeral.len != WA_CRYPTO_KEY_LEN) {
		rc = WC_EHSEPHEMERAL;
		goto out;
	}
	if ((rc = check_static(&sh->static_, sh->has_static_)) != 0 ||
	    (rc = check_payload(&sh->payload, sh->has_payload)) != 0)
		goto out;

	memcpy(hs->re, sh->ephemeral.data, sizeof(hs->re));
	mix_hash(hs, hs->re, sizeof(hs->re));
	if ((rc = mix_dh(hs, hs->e_priv, hs->re)) != 0 ||
	    (rc = decrypt_hash(hs, sh->static_.data, sh->static_.len,
	    rs)) != 0 ||
	    (rc = mix_dh(hs, hs->e_priv, rs)) != 0 ||
	    (rc = decrypt_hash_buf(hs, &sh->payload, cert)) != 0)
		goto out;
	memcpy(server_static, rs, sizeof(rs));
	hs->step = WA_NOISE_STEP_FINISH;
out:
	if (m != NULL)
		protobuf_c_message_free_unpacked(&m->base, NULL);
	wa_crypto_wipe(rs, sizeof(rs));
	return rc == 0 ? 0 : fail(hs, rc);
}

int
wa_noise_client_finish(struct wa_noise *hs,
    const uint8_t s_priv[WA_CRYPTO_KEY_LEN], const uint8_t *payload,
    size_t len, struct buf *out)
{
	Wa__HandshakeMessage			 m =
	    WA__HANDSHAKE_MESSAGE__INIT;
	Wa__HandshakeMessage__ClientFinish	 cf =
	    WA__HANDSHAKE_MESSAGE__CLIENT_FINISH__INIT;
	uint8_t					 s_pub[WA_CRYPTO_KEY_LEN];
	uint8_t					 c1[WA_NOISE_STATIC_CT_LEN];
	uint8_t					*c2 = NULL;
	int					 rc;

	if ((rc = expect(hs, WA_NOISE_INITIATOR, WA_NOISE_STEP_FINISH)) != 0)
		goto out;
	if (len > WA_CRYPTO_GCM_MAX_LEN) {
		rc = WC_ETOOBIG;
		goto out;
	}
	c2 = xmalloc(len + WA_CRYPTO_GCM_TAG_LEN);
	wa_crypto_x25519_base(s_priv, s_pub);
	if ((rc = encrypt_hash(hs, s_pub, sizeof(s_pub), c1)) != 0 ||
	    (rc = mix_dh(hs, s_priv, hs->re)) != 0 ||
	    (rc = encrypt_hash(hs, payload, len, c2)) != 0)
		goto out;

	cf.has_static_ = 1;
	cf.static_.data = c1;
	cf.static_.len = sizeof(c1);
	cf.has_payload = 1;
	cf.payload.data = c2;
	cf.payload.len = len + WA_CRYPTO_GCM_TAG_LEN;
	m.clientfinish = &cf;
	pack(&m, out);
	hs->step = WA_NOISE_STEP_SPLIT;
out:
	free(c2);
	return rc == 0 ? 0 : fail(hs, rc);
}

int
wa_noise_read_client_hello(struct wa_noise *hs, const uint8_t *p, size_t len)
{
	Wa__HandshakeMessage	*m = NULL;
	int			 rc;

	if ((rc = expect(hs, WA_NOISE_RESPONDER, WA_NOISE_STEP_HELLO)) != 0)
		goto out;
	if ((rc = unpack(p, len, &m)) != 0)
		goto out;
	if (m->clienthello == NULL) {
		rc = WC_EHSMSG;
		goto out;
	}
	if (!m->clienthello->has_ephemeral ||
	    m->clienthello->ephemeral.len != WA_CRYPTO_KEY_LEN) {
		rc = WC_EHSEPHEMERAL;
		goto out;
	}
	memcpy(hs->re, m->clienthello->ephemeral.data, sizeof(hs->re));
	mix_hash(hs, hs->re, sizeof(hs->re));
	hs->step = WA_NOISE_STEP_SERVER;
out:
	if (m != NULL)
		protobuf_c_message_free_unpacked(&m->base, NULL);
	return rc == 0 ? 0 : fail(hs, rc);
}

int
wa_noise_server_hello(struct wa_noise *hs,
    const uint8_t e_priv[WA_CRYPTO_KEY_LEN],
    const uint8_t s_priv[WA_CRYPTO_KEY_LEN], const uint8_t *cert,
    size_t cert_len, struct buf *out)
{
	Wa__HandshakeMessage			 m =
	    WA__HANDSHAKE_MESSAGE__INIT;
	Wa__HandshakeMessage__ServerHello	 sh =
	    WA__HANDSHAKE_MESSAGE__SERVER_HELLO__INIT;
	uint8_t					 e_pub[WA_CRYPTO_KEY_LEN];
	uint8_t					 s_pub[WA_CRYPTO_KEY_LEN];
	uint8_t					 c1[WA_NOISE_STATIC_CT_LEN];
	uint8_t					*c2 = NULL;
	int					 rc;

	if ((rc = expect(hs, WA_NOISE_RESPONDER, WA_NOISE_STEP_SERVER)) != 0)
		goto out;
	if (cert_len > WA_CRYPTO_GCM_MAX_LEN) {
		rc = WC_ETOOBIG;
		goto out;
	}
	c2 = xmalloc(cert_len + WA_CRYPTO_GCM_TAG_LEN);
	memcpy(hs->e_priv, e_priv, sizeof(hs->e_priv));
	wa_crypto_x25519_base(e_priv, e_pub);
	wa_crypto_x25519_base(s_priv, s_pub);
	mix_hash(hs, e_pub, sizeof(e_pub));
	if ((rc = mix_dh(hs, e_priv, hs->re)) != 0 ||
	    (rc = encrypt_hash(hs, s_pub, sizeof(s_pub), c1)) != 0 ||
	    (rc = mix_dh(hs, s_priv, hs->re)) != 0 ||
	    (rc = encrypt_hash(hs, cert, cert_len, c2)) != 0)
		goto out;

	sh.has_ephemeral = 1;
	sh.ephemeral.data = e_pub;
	sh.ephemeral.len = sizeof(e_pub);
	sh.has_static_ = 1;
	sh.static_.data = c1;
	sh.static_.len = sizeof(c1);
	sh.has_payload = 1;
	sh.payload.data = c2;
	sh.payload.len = cert_len + WA_CRYPTO_GCM_TAG_LEN;
	m.serverhello = &sh;
	pack(&m, out);
	hs->step = WA_NOISE_STEP_FINISH;
out:
	free(c2);
	return rc == 0 ? 0 : fail(hs, rc);
}

int
wa_noise_read_client_finish(struct wa_noise *hs, const uint8_t *p,
    size_t len, uint8_t client_static[WA_CRYPTO_KEY_LEN], struct buf *payload)
{
	Wa__HandshakeMessage			*m = NULL;
	Wa__HandshakeMessage__ClientFinish	*cf;
	uint8_t					 rs[WA_CRYPTO_KEY_LEN];
	int					 rc;

	if ((rc = expect(hs, WA_NOISE_RESPONDER, WA_NOISE_STEP_FINISH)) != 0)
		goto out;
	if ((rc = unpack(p, len, &m)) != 0)
		goto out;
	if ((cf = m->clientfinish) == NULL) {
		rc = WC_EHSMSG;
		goto out;
	}
	if ((rc = check_static(&cf->static_, cf->has_static_)) != 0 ||
	    (rc = check_payload(&cf->payload, cf->has_payload)) != 0)
		goto out;
	if ((rc = decrypt_hash(hs, cf->static_.data, cf->static_.len,
	    rs)) != 0 ||
	    (rc = mix_dh(hs, hs->e_priv, rs)) != 0 ||
	    (rc = decrypt_hash_buf(hs, &cf->payload, payload)) != 0)
		goto out;
	memcpy(client_static, rs, sizeof(rs));
	hs->step = WA_NOISE_STEP_SPLIT;
out:
	if (m != NULL)
		protobuf_c_message_free_unpacked(&m->base, NULL);
	wa_crypto_wipe(rs, sizeof(rs));
	return rc == 0 ? 0 : fail(hs, rc);
}

int
wa_noise_split(struct wa_noise *hs, struct wa_noise_transport *t)
{
	struct wa_noise_transport	 nt;
	uint8_t				 okm[2 * WA_CRYPTO_KEY_LEN];
	const uint8_t			*wk, *rk;
	int				 rc;

	if (hs->step != WA_NOISE_STEP_SPLIT)
		return fail(hs, WC_ESTATE);
	memset(&nt, 0, sizeof(nt));
	if ((rc = wa_crypto_hkdf(hs->ck, sizeof(hs->ck), NULL, 0, NULL, 0,
	    okm, sizeof(okm))) != 0)
		goto out;
	/* okm[0:32] carries client to server, okm[32:64] the other way. */
	wk = hs->role == WA_NOISE_INITIATOR ? okm : okm + WA_CRYPTO_KEY_LEN;
	rk = hs->role == WA_NOISE_INITIATOR ? okm + WA_CRYPTO_KEY_LEN : okm;
	/* The handshake's context carries on as the sending one. */
	nt.send = hs->aead;
	hs->aead.ctx = NULL;
	if ((rc = wa_crypto_gcm_rekey(&nt.send, wk, true)) != 0)
		goto out;
	if ((rc = wa_crypto_gcm_init(&nt.recv, rk, false)) != 0) {
		wa_crypto_gcm_release(&nt.send);
		goto out;
	}
	*t = nt;
out:
	wa_crypto_wipe(okm, sizeof(okm));
	wa_noise_release(hs);
	return rc;
}

void
wa_noise_release(struct wa_noise *hs)
{
	enum wa_noise_role	 role = hs->role;

	wa_crypto_gcm_release(&hs->aead);
	wa_crypto_wipe(hs, sizeof(*hs));
	hs->role = role;
	hs->step = WA_NOISE_STEP_DEAD;
}

int
wa_noise_encrypt(struct wa_noise_transport *t, const uint8_t *p, size_t len,
    uint8_t *out)
{
	uint8_t	 iv[WA_CRYPTO_GCM_NONCE_LEN];

	if (t->send_n > UINT32_MAX)
		return WC_ENONCE;
	if (len > WA_CRYPTO_GCM_MAX_LEN)
		return WC_ETOOBIG;
	nonce(iv, (uint32_t)t->send_n++);
	return wa_crypto_gcm_seal(&t->send, iv, NULL, 0, p, len, out);
}

int
wa_noise_decrypt(struct wa_noise_transport *t, const uint8_t *c, size_t len,
    uint8_t *out)
{
	uint8_t	 iv[WA_CRYPTO_GCM_NONCE_LEN];

	if (t->recv_n > UINT32_MAX)
		return WC_ENONCE;
	/* The peer spent this counter on the frame, whatever it holds. */
	nonce(iv, (uint32_t)t->recv_n++);
	return wa_crypto_gcm_open(&t->recv, iv, NULL, 0, c, len, out);
}

void
wa_noise_transport_release(struct wa_noise_transport *t)
{
	wa_crypto_gcm_release(&t->send);
	wa_crypto_gcm_release(&t->recv);
	t->send_n = t->recv_n = (uint64_t)UINT32_MAX + 1;
}
