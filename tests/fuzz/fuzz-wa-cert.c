/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-cert.c -- fuzz target for the server's certificate
 * chain (proto/cert.c, protocol.md 2.4), fed directly rather than behind
 * the Noise handshake's AES-GCM as fuzz-wa-noise does.  The trusted root
 * is the wachat-sim test root (tests/sim/root-key.txt), the intermediate
 * and the server's static key fixed test keys.  Byte 0 picks the mode:
 *   0  wa_cert_verify() of the rest, a packed CertChain;
 *   1  the rest is a 2-byte big-endian length n, the intermediate's
 *      Details (n bytes) and the leaf's Details: the target signs them
 *      (the root signs the first, the fixed intermediate the second),
 *      packs the CertChain and verifies it, so mutations get past the
 *      signatures to the issuer, key and time checks.
 * Bit 1 of byte 0 set: no reason is asked for (reason NULL).
 * Contract: every input is accepted or refused with one of cert.h's
 * codes and a reason; no crash, no leak, no read outside the input.
 * Seeds: tests/fuzz/seeds-baileys.mjs (Baileys' CertChain encoding).
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cert.pb-c.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/cert.h"
#include "proto/crypto.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NOW		1750000000u	/* inside the seeds' window */
#define MAX_CHAIN	(64u << 10)	/* far above a real chain (~350 B) */

static const uint8_t	 sim_root[32] = {
	0xb0, 0xbb, 0x18, 0xa2, 0x50, 0x5b, 0xa2, 0x62,
	0x95, 0x6e, 0xd6, 0xe0, 0x4b, 0x7e, 0x27, 0x7d,
	0xa7, 0x7b, 0x42, 0x5f, 0xe7, 0x15, 0xba, 0x57,
	0x6b, 0x4f, 0x92, 0x44, 0xa4, 0x74, 0x3b, 0x5e,
};

struct keys {
	uint8_t	 root_pub[32], inter[32], server_pub[32];
};

static void
keys_init(struct keys *k)
{
	uint8_t	 s[32];

	if (wa_crypto_init() != 0)
		abort();
	wa_crypto_x25519_base(sim_root, k->root_pub);
	wa_crypto_sha256("fuzz intermediate", 17, k->inter);
	wa_crypto_sha256("fuzz server static", 18, s);
	wa_crypto_x25519_base(s, k->server_pub);
}

static int	 no_reason;	/* this input asks for none */

static void
verify(const struct keys *k, const uint8_t *p, size_t len)
{
	const char	*why = NULL;
	int		 rc;

	rc = wa_cert_verify(p, len, k->root_pub, k->server_pub, NOW,
	    no_reason ? NULL : &why);
	if (rc != 0 && ((why == NULL && !no_reason) || (rc != WC_ECERTFORMAT &&
	    rc != WC_ECERTROOT && rc != WC_ECERTSIG && rc != WC_ECERTISSUER &&
	    rc != WC_ECERTKEY && rc != WC_ECERTEXPIRED &&
	    rc != WC_ECERTNOTYET)))
		abort();
}

/* Mode 1: sign the two Details given, pack and verify the chain. */
static void
sign_and_verify(const struct keys *k, const uint8_t *p, size_t len)
{
	Wa__CertChain				 cc = WA__CERT_CHAIN__INIT;
	Wa__CertChain__NoiseCertificate		 in =
	    WA__CERT_CHAIN__NOISE_CERTIFICATE__INIT;
	Wa__CertChain__NoiseCertificate		 lf =
	    WA__CERT_CHAIN__NOISE_CERTIFICATE__INIT;
	uint8_t					 isig[64], lsig[64];
	uint8_t					 rnd[64], *packed;
	size_t					 n, plen;

	if (len < 2)
		return;
	n = (size_t)p[0] << 8 | p[1];
	p += 2;
	len -= 2;
	if (n > len)
		n = len;
	memset(rnd, 0x5e, sizeof(rnd));
	if (wa_crypto_xeddsa_sign(sim_root, p, n, rnd, isig) != 0 ||
	    wa_crypto_xeddsa_sign(k->inter, p + n, len - n, rnd, lsig) != 0)
		abort();
	in.has_details = in.has_signature = 1;
	in.details.data = (uint8_t *)(uintptr_t)p;	/* read by pack only */
	in.details.len = n;
	in.signature.data = isig;
	in.signature.len = sizeof(isig);
	lf.has_details = lf.has_signature = 1;
	lf.details.data = (uint8_t *)(uintptr_t)(p + n);
	lf.details.len = len - n;
	lf.signature.data = lsig;
	lf.signature.len = sizeof(lsig);
	cc.intermediate = &in;
	cc.leaf = &lf;
	plen = protobuf_c_message_get_packed_size(&cc.base);
	packed = xmalloc(plen > 0 ? plen : 1);
	if (protobuf_c_message_pack(&cc.base, packed) != plen)
		abort();
	verify(k, packed, plen);
	free(packed);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Made once, only read afterwards. */
	static struct keys	 k;
	static int		 ready;

	if (size < 1 || size > MAX_CHAIN)
		return 0;
	if (!ready) {
		keys_init(&k);
		ready = 1;
	}
	no_reason = (data[0] & 2) != 0;
	if (data[0] % 2 == 0)
		verify(&k, data + 1, size - 1);
	else
		sign_and_verify(&k, data + 1, size - 1);
	return 0;
}
