/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-pair.c -- fuzz target for pairing: the device
 * identity pair-success carries (proto/pair.c: ADVSignedDeviceIdentityHMAC,
 * ADVSignedDeviceIdentity, ADVDeviceIdentity; protocol.md 6.4) and the
 * phone-code path (proto/paircode.c: the primary's wrapped ephemeral key
 * of link_code_companion_reg unwrapped, then companion_finish's bundle and
 * ADV secret; 6.7).  Fixed test keys throughout (the ADV secret, our
 * identity, the account key, the code).  Byte 0 picks the mode:
 *   0  wa_pair_verify() of the rest, as pair-success's device-identity;
 *   1  byte 1 bit 0 says hosted; the rest is an ADVSignedDeviceIdentity,
 *      which the target wraps with the right HMAC (past step 2);
 *   2  byte 1 as in 1; the rest is an ADVDeviceIdentity, which the target
 *      signs with the account key and wraps (past steps 2 and 4);
 *   3  the primary's ephemeral key (32 bytes, as unwrapped) and its
 *      identity key (32): wa_paircode_finish(), the low-order checks and
 *      the bundle of companion_finish;
 *   4  80 bytes of link_code_pairing_wrapped_primary_ephemeral_pub and 32
 *      of primary_identity_pub (what proto/eng-pair.c checks the sizes
 *      of), unwrapped with the code, then finished as in 3.  Its PBKDF2
 *      of 131072 rounds takes tens of ms, and 1.6 s and 250 MB under
 *      ASan with libFuzzer's malloc hooks (OpenSSL allocates per round),
 *      so only the corpus replay of `make check` (built with
 *      -DWA_FUZZ_REPLAY) runs it; the fuzzer gets mode 3, past the unwrap
 *      (a fixed-size AES-CTR with nothing to parse).
 * Contract: accepted, or refused with the codes pair.h and paircode.h
 * name, outputs untouched on error; no crash, no leak.  Seeds:
 * tests/fuzz/seeds-baileys.mjs (Baileys' WAProto encodings and curve).
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adv.pb-c.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/pair.h"
#include "proto/paircode.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_IDENTITY	(16u << 10)	/* WA_ENG_ADV_MAX is far below */
#define CODE		"FZZA1234"

struct keys {
	uint8_t	 adv[32], id_priv[32], id_pub[32], acct[32], acct_pub[32];
	uint8_t	 eph[32];
};

static void
keys_init(struct keys *k)
{
	if (wa_crypto_init() != 0)
		abort();
	wa_crypto_sha256("fuzz adv secret", 15, k->adv);
	wa_crypto_sha256("fuzz identity", 13, k->id_priv);
	wa_crypto_x25519_base(k->id_priv, k->id_pub);
	wa_crypto_sha256("fuzz account", 12, k->acct);
	wa_crypto_x25519_base(k->acct, k->acct_pub);
	wa_crypto_sha256("fuzz companion ephemeral", 24, k->eph);
}

static void
check(const struct keys *k, const uint8_t *p, size_t len)
{
	struct buf	 full = BUF_INIT, reply = BUF_INIT;
	uint8_t		 rnd[WA_CRYPTO_SIG_RANDOM_LEN], acct[32];
	uint32_t	 ki = 0xdeadbeef;
	int		 rc;

	memset(rnd, 0x5e, sizeof(rnd));
	memset(acct, 0xaa, sizeof(acct));
	rc = wa_pair_verify(k->adv, k->id_priv, k->id_pub, p, len, rnd, &full,
	    &reply, acct, &ki);
	if (rc == 0) {
		if (full.len == 0 || reply.len == 0 || reply.len > full.len ||
		    memcmp(acct, k->acct_pub, 32) != 0)
			abort();
	} else if ((rc != WC_EBADMAC && rc != WC_EBADSIG && rc != WC_EPROTO &&
	    rc != WC_ECRYPTO) || full.len != 0 || reply.len != 0 ||
	    ki != 0xdeadbeef || acct[0] != 0xaa)
		abort();
	buf_release(&full);
	buf_release(&reply);
}

/* Pack m into a fresh buffer (xmalloc'd) of *len bytes. */
static uint8_t *
pack(const ProtobufCMessage *m, size_t *len)
{
	uint8_t	*p;

	*len = protobuf_c_message_get_packed_size(m);
	p = xmalloc(*len > 0 ? *len : 1);
	if (protobuf_c_message_pack(m, p) != *len)
		abort();
	return p;
}

/* Mode 1: wrap the ADVSignedDeviceIdentity p with its HMAC. */
static void
hmac_and_check(const struct keys *k, int hosted, const uint8_t *p, size_t len)
{
	Wa__ADVSignedDeviceIdentityHMAC	 c =
	    WA__ADVSIGNED_DEVICE_IDENTITY_HMAC__INIT;
	struct buf			 msg = BUF_INIT;
	uint8_t				 mac[32], *w;
	size_t				 wlen;

	if (hosted)
		buf_append(&msg, "\x06\x05", 2);
	buf_append(&msg, p, len);
	wa_crypto_hmac_sha256(k->adv, 32, msg.p, msg.len, mac);
	c.has_details = c.has_hmac = 1;
	c.details.data = (uint8_t *)(uintptr_t)p;	/* read by pack only */
	c.details.len = len;
	c.hmac.data = mac;
	c.hmac.len = sizeof(mac);
	if (hosted) {
		c.has_accounttype = 1;
		c.accounttype = WA__ADVENCRYPTION_TYPE__HOSTED;
	}
	w = pack(&c.base, &wlen);
	check(k, w, wlen);
	free(w);
	buf_release(&msg);
}

/* Mode 2: sign the ADVDeviceIdentity p with the account key, then wrap. */
static void
sign_and_check(const struct keys *k, int hosted, const uint8_t *p, size_t len)
{
	Wa__ADVSignedDeviceIdentity	 a =
	    WA__ADVSIGNED_DEVICE_IDENTITY__INIT;
	struct buf			 msg = BUF_INIT;
	uint8_t				 sig[64], rnd[64], *w;
	size_t				 wlen;

	buf_append(&msg, hosted ? "\x06\x05" : "\x06\x00", 2);
	buf_append(&msg, p, len);
	buf_append(&msg, k->id_pub, 32);
	memset(rnd, 0x3c, sizeof(rnd));
	if (wa_crypto_xeddsa_sign(k->acct, msg.p, msg.len, rnd, sig) != 0)
		abort();
	a.has_details = a.has_accountsignaturekey = a.has_accountsignature = 1;
	a.details.data = (uint8_t *)(uintptr_t)p;
	a.details.len = len;
	a.accountsignaturekey.data = (uint8_t *)(uintptr_t)k->acct_pub;
	a.accountsignaturekey.len = 32;
	a.accountsignature.data = sig;
	a.accountsignature.len = sizeof(sig);
	w = pack(&a.base, &wlen);
	hmac_and_check(k, hosted, w, wlen);
	free(w);
	buf_release(&msg);
}

/* Mode 3: companion_finish from the primary's two keys. */
static void
code_finish(const struct keys *k, const uint8_t peph[32],
    const uint8_t pid[32])
{
	uint8_t	 rnd[WA_PAIRCODE_FINISH_RAND_LEN], adv[32];
	uint8_t	 bundle[WA_PAIRCODE_BUNDLE_LEN];
	int	 rc;

	memset(rnd, 0x11, sizeof(rnd));
	memset(adv, 0xaa, sizeof(adv));
	rc = wa_paircode_finish(k->eph, peph, k->id_priv, k->id_pub, pid, rnd,
	    bundle, adv);
	if ((rc != 0 && rc != WC_ELOWORDER && rc != WC_ECRYPTO) ||
	    (rc != 0 && adv[0] != 0xaa))
		abort();
}

/* Mode 4: the phone's link_code_companion_reg, as eng_on_lc_primary()
 * takes it once the sizes are right. */
static void
code_primary(const struct keys *k, const uint8_t *p, size_t len)
{
	uint8_t	 wr[WA_PAIRCODE_WRAPPED_LEN], pid[32], peph[32];

	if (len != sizeof(wr) + sizeof(pid))
		return;		/* refused before any crypto */
	/* Own copies, so ASan sees a read past either part. */
	memcpy(wr, p, sizeof(wr));
	memcpy(pid, p + sizeof(wr), sizeof(pid));
	if (wa_paircode_unwrap(CODE, wr, peph) != 0)
		abort();	/* nothing to refuse in 80 bytes */
	code_finish(k, peph, pid);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct keys	 k;	/* made once, only read afterwards */
	static int		 ready;

	if (size < 1 || size > MAX_IDENTITY)
		return 0;
	if (!ready) {
		keys_init(&k);
		ready = 1;
	}
	switch (data[0] % 5) {
	case 0:
		check(&k, data + 1, size - 1);
		break;
	case 1:
		if (size >= 2)
			hmac_and_check(&k, data[1] & 1, data + 2, size - 2);
		break;
	case 2:
		if (size >= 2)
			sign_and_check(&k, data[1] & 1, data + 2, size - 2);
		break;
	case 3:
		if (size == 1 + 64)
			code_finish(&k, data + 1, data + 33);
		break;
	default:
#ifdef WA_FUZZ_REPLAY
		code_primary(&k, data + 1, size - 1);
#endif
		break;
	}
	return 0;
}
