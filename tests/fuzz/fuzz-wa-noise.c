/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-noise.c -- fuzz target for what a Noise peer sends
 * (proto/noise.c) and the certificate chain inside it (proto/cert.c).
 * Byte 0 picks what reads the rest, with fixed test keys throughout, so a
 * seed holding a genuine message gets past the MACs:
 *   0  the responder reads a ClientHello (then answers it);
 *   1  the initiator, having sent its ClientHello, reads a ServerHello
 *      (then verifies the chain it carries and sends its ClientFinish);
 *   2  the responder, after a genuine hello exchange, reads a ClientFinish;
 *   3  after a genuine handshake, the server decrypts frames: the rest is
 *      a sequence of 2-byte big-endian lengths and frames;
 *   4  wa_cert_verify() on the rest.
 * Contract: any input is read or refused with an error code; no crash, no
 * leak, no read outside the input; an output appended to a buffer only on
 * success.
 *
 * Built with -DWA_NOISE_WRITE_SEEDS and tests/fuzz/replay.c left out, the
 * file is a program that writes genuine seeds into the directory named by
 * its argument (tests/fuzz/corpus/wa-noise): regenerate them when the
 * keys below or the handshake change.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "proto/cert.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/noise.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NOW	1750000000u	/* inside the chain's window */

struct fixed {
	uint8_t		 ce[32], cs[32], se[32], ss[32], root[32], inter[32];
	uint8_t		 ss_pub[32], root_pub[32];
	struct buf	 cert;		/* the chain the server sends */
};

static void
fixed_init(struct fixed *k)
{
	uint8_t	 rnd[128];

	if (wa_crypto_init() != 0)
		abort();
	wa_crypto_sha256("fuzz client ephemeral", 21, k->ce);
	wa_crypto_sha256("fuzz client static", 18, k->cs);
	wa_crypto_sha256("fuzz server ephemeral", 21, k->se);
	wa_crypto_sha256("fuzz server static", 18, k->ss);
	wa_crypto_sha256("fuzz root", 9, k->root);
	wa_crypto_sha256("fuzz intermediate", 17, k->inter);
	wa_crypto_x25519_base(k->ss, k->ss_pub);
	wa_crypto_x25519_base(k->root, k->root_pub);
	memset(rnd, 0x5e, sizeof(rnd));
	memset(&k->cert, 0, sizeof(k->cert));
	if (wa_cert_issue(k->root, k->inter, k->ss_pub, 1, 2, 1700000000,
	    1800000000, rnd, &k->cert) != 0)
		abort();
}

/* After a failure an output buffer must be as it was. */
static void
check_untouched(const struct buf *b, size_t len)
{
	if (b->len != len)
		abort();
}

/* The genuine hello exchange, up to the message the initiator reads. */
static void
hellos(const struct fixed *k, struct wa_noise *c, struct wa_noise *s,
    struct buf *m)
{
	wa_noise_init(c, WA_NOISE_INITIATOR);
	wa_noise_init(s, WA_NOISE_RESPONDER);
	m->len = 0;
	if (wa_noise_client_hello(c, k->ce, m) != 0 ||
	    wa_noise_read_client_hello(s, m->p, m->len) != 0)
		abort();
	m->len = 0;
	if (wa_noise_server_hello(s, k->se, k->ss, k->cert.p, k->cert.len,
	    m) != 0)
		abort();
}

static void
read_hello(const struct fixed *k, const uint8_t *p, size_t len)
{
	struct wa_noise	 s;
	struct buf	 out = BUF_INIT;

	wa_noise_init(&s, WA_NOISE_RESPONDER);
	if (wa_noise_read_client_hello(&s, p, len) == 0) {
		/* Any accepted ephemeral is answered or refused cleanly. */
		if (wa_noise_server_hello(&s, k->se, k->ss, k->cert.p,
		    k->cert.len, &out) != 0)
			check_untouched(&out, 0);
	}
	wa_noise_release(&s);
	buf_release(&out);
}

static void
read_server_hello(const struct fixed *k, const uint8_t *p, size_t len)
{
	struct wa_noise			 c;
	struct wa_noise_transport	 t;
	struct buf			 m = BUF_INIT, cert = BUF_INIT;
	uint8_t				 rs[32];
	const char			*why = NULL;

	wa_noise_init(&c, WA_NOISE_INITIATOR);
	if (wa_noise_client_hello(&c, k->ce, &m) != 0)
		abort();
	if (wa_noise_read_server_hello(&c, p, len, rs, &cert) == 0) {
		if (wa_cert_verify(cert.p, cert.len, k->root_pub, rs, NOW,
		    &why) != 0 && why == NULL)
			abort();
		m.len = 0;
		if (wa_noise_client_finish(&c, k->cs, (const uint8_t *)"p", 1,
		    &m) != 0 || wa_noise_split(&c, &t) != 0)
			abort();
		wa_noise_transport_release(&t);
	} else
		check_untouched(&cert, 0);
	wa_noise_release(&c);
	buf_release(&m);
	buf_release(&cert);
}

static void
read_finish(const struct fixed *k, const uint8_t *p, size_t len)
{
	struct wa_noise			 c, s;
	struct wa_noise_transport	 t;
	struct buf			 m = BUF_INIT, out = BUF_INIT;
	uint8_t				 rs[32];

	hellos(k, &c, &s, &m);
	if (wa_noise_read_client_finish(&s, p, len, rs, &out) == 0) {
		if (wa_noise_split(&s, &t) != 0)
			abort();
		wa_noise_transport_release(&t);
	} else
		check_untouched(&out, 0);
	wa_noise_release(&c);
	wa_noise_release(&s);
	buf_release(&m);
	buf_release(&out);
}

/* A genuine handshake; ct and st get the two transport states. */
static void
handshake(const struct fixed *k, struct wa_noise_transport *ct,
    struct wa_noise_transport *st)
{
	struct wa_noise	 c, s;
	struct buf	 m = BUF_INIT, out = BUF_INIT;
	uint8_t		 rs[32];

	hellos(k, &c, &s, &m);
	if (wa_noise_read_server_hello(&c, m.p, m.len, rs, &out) != 0)
		abort();
	m.len = 0;
	if (wa_noise_client_finish(&c, k->cs, (const uint8_t *)"p", 1,
	    &m) != 0 ||
	    wa_noise_read_client_finish(&s, m.p, m.len, rs, &out) != 0 ||
	    wa_noise_split(&c, ct) != 0 || wa_noise_split(&s, st) != 0)
		abort();
	buf_release(&m);
	buf_release(&out);
}

static void
read_frames(const struct fixed *k, const uint8_t *p, size_t len)
{
	struct wa_noise_transport	 ct, st;
	uint8_t				*f;
	size_t				 n;
	int				 rc;

	handshake(k, &ct, &st);
	while (len >= 2) {
		n = (size_t)p[0] << 8 | p[1];
		p += 2;
		len -= 2;
		if (n > len)
			n = len;
		/* Its own allocation, so ASan sees a read past the frame. */
		f = malloc(n > 0 ? n : 1);
		if (f == NULL)
			abort();
		if (n > 0)
			memcpy(f, p, n);
		rc = wa_noise_decrypt(&st, f, n, f);
		if (rc != 0 && rc != WC_EBADMAC && rc != WC_ETRUNC)
			abort();
		free(f);
		p += n;
		len -= n;
	}
	wa_noise_transport_release(&ct);
	wa_noise_transport_release(&st);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Made once: the keys and the signed chain cost more than a run.
	 * Only read afterwards, and the chain's buffer lives as long as the
	 * process (not a leak: still reachable). */
	static struct fixed	 k;
	static int		 ready;
	const char		*why = NULL;

	if (size < 1)
		return 0;
	if (!ready) {
		fixed_init(&k);
		ready = 1;
	}
	switch (data[0] % 5) {
	case 0:
		read_hello(&k, data + 1, size - 1);
		break;
	case 1:
		read_server_hello(&k, data + 1, size - 1);
		break;
	case 2:
		read_finish(&k, data + 1, size - 1);
		break;
	case 3:
		read_frames(&k, data + 1, size - 1);
		break;
	default:
		if (wa_cert_verify(data + 1, size - 1, k.root_pub, k.ss_pub,
		    NOW, &why) != 0 && why == NULL)
			abort();
		break;
	}
	return 0;
}

#ifdef WA_NOISE_WRITE_SEEDS
static void
seed(const char *dir, const char *name, uint8_t mode, const uint8_t *p,
    size_t len)
{
	char	 path[4096];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "wb")) == NULL || fputc(mode, f) == EOF ||
	    fwrite(p, 1, len, f) != len || fclose(f) != 0)
		abort();
}

int
main(int argc, char **argv)
{
	struct fixed			 k;
	struct wa_noise			 c, s;
	struct wa_noise_transport	 ct, st;
	struct buf			 m = BUF_INIT, out = BUF_INIT;
	struct buf			 frames = BUF_INIT;
	uint8_t				 rs[32], enc[64];
	const char			*dir = argc > 1 ? argv[1] : ".";
	size_t				 i;

	fixed_init(&k);
	wa_noise_init(&c, WA_NOISE_INITIATOR);
	wa_noise_init(&s, WA_NOISE_RESPONDER);
	if (wa_noise_client_hello(&c, k.ce, &m) != 0)
		abort();
	seed(dir, "client-hello", 0, m.p, m.len);
	if (wa_noise_read_client_hello(&s, m.p, m.len) != 0)
		abort();
	m.len = 0;
	if (wa_noise_server_hello(&s, k.se, k.ss, k.cert.p, k.cert.len,
	    &m) != 0)
		abort();
	seed(dir, "server-hello", 1, m.p, m.len);
	if (wa_noise_read_server_hello(&c, m.p, m.len, rs, &out) != 0)
		abort();
	m.len = 0;
	if (wa_noise_client_finish(&c, k.cs, (const uint8_t *)"p", 1, &m) != 0)
		abort();
	seed(dir, "client-finish", 2, m.p, m.len);
	if (wa_noise_read_client_finish(&s, m.p, m.len, rs, &out) != 0 ||
	    wa_noise_split(&c, &ct) != 0 || wa_noise_split(&s, &st) != 0)
		abort();
	/* Three frames from the client, then one out of order. */
	for (i = 0; i < 4; i++) {
		uint8_t	 pt[8] = { 0, 0xf8, 1, 0x1a, (uint8_t)i };

		if (wa_noise_encrypt(&ct, pt, 5 + i, enc) != 0)
			abort();
		buf_push(&frames, 0);
		buf_push(&frames, (uint8_t)(5 + i + 16));
		buf_append(&frames, enc, 5 + i + 16);
	}
	seed(dir, "frames", 3, frames.p, frames.len);
	seed(dir, "cert-chain", 4, k.cert.p, k.cert.len);
	wa_noise_transport_release(&ct);
	wa_noise_transport_release(&st);
	buf_release(&m);
	buf_release(&out);
	buf_release(&frames);
	buf_release(&k.cert);
	return 0;
}
#endif
