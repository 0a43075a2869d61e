/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/cert.c -- the server certificate chain.  See cert.h. */
#include "base/compat.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <protobuf-c/protobuf-c.h>
#include <sodium.h>

#include "base/buf.h"
#include "proto/cert.h"
#include "cert.pb-c.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/pb.h"
#include "base/xmalloc.h"

const uint8_t WA_CERT_WHATSAPP_ROOT[WA_CRYPTO_KEY_LEN] = {
	0x14, 0x23, 0x75, 0x57, 0x4d, 0x0a, 0x58, 0x71,
	0x66, 0xaa, 0xe7, 0x1e, 0xbe, 0x51, 0x64, 0x37,
	0xc4, 0xa2, 0x8b, 0x73, 0xe3, 0x69, 0x5c, 0x6c,
	0xe1, 0xf7, 0xf9, 0x54, 0x5d, 0xa8, 0xee, 0x6b,
};

/* Set *reason (if asked) and return the code. */
static int
refuse(const char **reason, int code, const char *why)
{
	if (reason != NULL)
		*reason = why;
	return code;
}

static bool
cert_ok(const Wa__CertChain__NoiseCertificate *c)
{
	return c != NULL && c->has_details &&
	    c->has_signature && c->signature.len == WA_CRYPTO_SIG_LEN;
}

static int
unpack_details(const Wa__CertChain__NoiseCertificate *c,
    Wa__CertChain__NoiseCertificate__Details **out)
{
	ProtobufCMessage	*m;
	int			 rc;

	rc = wa_pb_unpack(
	    &wa__cert_chain__noise_certificate__details__descriptor,
	    c->details.data, c->details.len, &m);
	if (rc == 0)
		*out = (Wa__CertChain__NoiseCertificate__Details *)m;
	return rc;
}

/* Step 7 for one certificate. */
static int
check_time(const Wa__CertChain__NoiseCertificate__Details *d, uint64_t now_s,
    const char **reason, const char *not_yet, const char *expired)
{
	uint64_t	 nb = d->has_notbefore ? d->notbefore : 0;
	uint64_t	 na = d->has_notafter ? d->notafter : 0;

	if (now_s < nb)
		return refuse(reason, WC_ECERTNOTYET, not_yet);
	if (now_s > na)
		return refuse(reason, WC_ECERTEXPIRED, expired);
	return 0;
}

int
wa_cert_verify(const uint8_t *chain, size_t len,
    const uint8_t root_pub[WA_CRYPTO_KEY_LEN],
    const uint8_t server_static[WA_CRYPTO_KEY_LEN], uint64_t now_s,
    const char **reason)
{
	ProtobufCMessage			*m = NULL;
	Wa__CertChain				*cc;
	Wa__CertChain__NoiseCertificate		*leaf, *inter;
	Wa__CertChain__NoiseCertificate__Details	*id = NULL, *ld = NULL;
	uint32_t				 int_serial;
	int					 rc;

	if (wa_pb_unpack(&wa__cert_chain__descriptor, chain, len, &m) != 0) {
		rc = refuse(reason, WC_ECERTFORMAT,
		    "certificate chain is not a CertChain message");
		goto out;
	}
	cc = (Wa__CertChain *)m;
	leaf = cc->leaf;
	inter = cc->intermediate;
	/* 1 */
	if (!cert_ok(inter)) {
		rc = refuse(reason, WC_ECERTFORMAT, "intermediate certificate "
		    "lacks its details or a 64-byte signature");
		goto out;
	}
	if (!cert_ok(leaf)) {
		rc = refuse(reason, WC_ECERTFORMAT, "leaf certificate lacks "
		    "its details or a 64-byte signature");
		goto out;
	}
	/* 2 */
	if (wa_crypto_xeddsa_verify(root_pub, inter->details.data,
	    inter->details.len, inter->signature.data) != 0) {
		rc = refuse(reason, WC_ECERTROOT,
		    "intermediate certificate not signed by the trusted root");
		goto out;
	}
	/* 3 */
	if (unpack_details(inter, &id) != 0) {
		rc = refuse(reason, WC_ECERTFORMAT,
		    "intermediate certificate details do not parse");
		goto out;
	}
	if (id->has_issuerserial && id->issuerserial != WA_CERT_ROOT_SERIAL) {
		rc = refuse(reason, WC_ECERTISSUER, "wrong issuer serial: "
		    "the intermediate certificate's is not the root's (0)");
		goto out;
	}
	if (!id->has_key || id->key.len != WA_CRYPTO_KEY_LEN) {
		rc = refuse(reason, WC_ECERTFORMAT,
		    "intermediate certificate key is not 32 bytes");
		goto out;
	}
	/* 4 */
	if (wa_crypto_xeddsa_verify(id->key.data, leaf->details.data,
	    leaf->details.len, leaf->signature.data) != 0) {
		rc = refuse(reason, WC_ECERTSIG,
		    "leaf certificate not signed by the intermediate");
		goto out;
	}
	/* 5 */
	if (unpack_details(leaf, &ld) != 0) {
		rc = refuse(reason, WC_ECERTFORMAT,
		    "leaf certificate details do not parse");
		goto out;
	}
	int_serial = id->has_serial ? id->serial : 0;
	if ((ld->has_issuerserial ? ld->issuerserial : 0) != int_serial) {
		rc = refuse(reason, WC_ECERTISSUER, "wrong issuer serial: the "
		    "leaf certificate's is not the intermediate's serial");
		goto out;
	}
	/* 6 */
	if (!ld->has_key || ld->key.len != WA_CRYPTO_KEY_LEN ||
	    sodium_memcmp(ld->key.data, server_static,
	    WA_CRYPTO_KEY_LEN) != 0) {
		rc = refuse(reason, WC_ECERTKEY,
		    "leaf key is not the server's static key");
		goto out;
	}
	/* 7 */
	if ((rc = check_time(id, now_s, reason,
	    "intermediate certificate not yet valid",
	    "intermediate certificate expired")) != 0 ||
	    (rc = check_time(ld, now_s, reason,
	    "leaf certificate not yet valid",
	    "leaf certificate expired")) != 0)
		goto out;
	rc = 0;
out:
	if (ld != NULL)
		protobuf_c_message_free_unpacked(&ld->base, NULL);
	if (id != NULL)
		protobuf_c_message_free_unpacked(&id->base, NULL);
	if (m != NULL)
		protobuf_c_message_free_unpacked(m, NULL);
	return rc;
}

/* Pack s's Details into *det (xmalloc'd) and sign them into sig. */
static int
issue_one(const struct wa_cert_spec *s, uint8_t **det, size_t *det_len,
    uint8_t sig[WA_CRYPTO_SIG_LEN])
{
	Wa__CertChain__NoiseCertificate__Details	 d =
	    WA__CERT_CHAIN__NOISE_CERTIFICATE__DETAILS__INIT;
	int		 rc;

	d.has_serial = 1;
	d.serial = s->serial;
	d.has_issuerserial = 1;
	d.issuerserial = s->issuer_serial;
	d.has_key = 1;
	d.key.data = (uint8_t *)(uintptr_t)s->key;	/* read only by pack */
	d.key.len = WA_CRYPTO_KEY_LEN;
	d.has_notbefore = 1;
	d.notbefore = s->not_before_s;
	d.has_notafter = 1;
	d.notafter = s->not_after_s;
	*det_len = protobuf_c_message_get_packed_size(&d.base);
	*det = xmalloc(*det_len);
	(void)protobuf_c_message_pack(&d.base, *det);
	if ((rc = wa_crypto_xeddsa_sign(s->signer_priv, *det, *det_len,
	    s->random, sig)) != 0) {
		free(*det);
		*det = NULL;
	}
	return rc;
}

int
wa_cert_issue_spec(const struct wa_cert_spec *intermediate,
    const struct wa_cert_spec *leaf, struct buf *out)
{
	Wa__CertChain				 cc = WA__CERT_CHAIN__INIT;
	Wa__CertChain__NoiseCertificate		 ci =
	    WA__CERT_CHAIN__NOISE_CERTIFICATE__INIT;
	Wa__CertChain__NoiseCertificate		 cl =
	    WA__CERT_CHAIN__NOISE_CERTIFICATE__INIT;
	uint8_t					*idet = NULL, *ldet = NULL;
	uint8_t					 isig[WA_CRYPTO_SIG_LEN];
	uint8_t					 lsig[WA_CRYPTO_SIG_LEN];
	size_t					 ilen, llen, n;
	int					 rc;

	if ((rc = issue_one(intermediate, &idet, &ilen, isig)) != 0 ||
	    (rc = issue_one(leaf, &ldet, &llen, lsig)) != 0)
		goto out;
	ci.has_details = 1;
	ci.details.data = idet;
	ci.details.len = ilen;
	ci.has_signature = 1;
	ci.signature.data = isig;
	ci.signature.len = sizeof(isig);
	cl.has_details = 1;
	cl.details.data = ldet;
	cl.details.len = llen;
	cl.has_signature = 1;
	cl.signature.data = lsig;
	cl.signature.len = sizeof(lsig);
	cc.leaf = &cl;
	cc.intermediate = &ci;
	n = wa__cert_chain__get_packed_size(&cc);
	buf_reserve(out, n);
	out->len += wa__cert_chain__pack(&cc, out->p + out->len);
out:
	free(idet);
	free(ldet);
	return rc;
}

int
wa_cert_issue(const uint8_t root_priv[WA_CRYPTO_KEY_LEN],
    const uint8_t int_priv[WA_CRYPTO_KEY_LEN],
    const uint8_t server_static_pub[WA_CRYPTO_KEY_LEN], uint32_t int_serial,
    uint32_t leaf_serial, uint64_t not_before_s, uint64_t not_after_s,
    const uint8_t random[2 * WA_CRYPTO_SIG_RANDOM_LEN], struct buf *out)
{
	struct wa_cert_spec	 i, l;
	uint8_t			 int_pub[WA_CRYPTO_KEY_LEN];

	wa_crypto_x25519_base(int_priv, int_pub);
	i.serial = int_serial;
	i.issuer_serial = WA_CERT_ROOT_SERIAL;
	i.key = int_pub;
	i.not_before_s = not_before_s;
	i.not_after_s = not_after_s;
	i.signer_priv = root_priv;
	i.random = random;
	l.serial = leaf_serial;
	l.issuer_serial = int_serial;
	l.key = server_static_pub;
	l.not_before_s = not_before_s;
	l.not_after_s = not_after_s;
	l.signer_priv = int_priv;
	l.random = random + WA_CRYPTO_SIG_RANDOM_LEN;
	return wa_cert_issue_spec(&i, &l, out);
}
