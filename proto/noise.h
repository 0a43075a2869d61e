/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/noise.h -- WhatsApp's Noise_XX_25519_AESGCM_SHA256 handshake with
 * the "WA 06 03" prologue (protocol.md 2.1-2.3), for both roles: the
 * initiator (the client) and the responder (the test server), then the
 * transport cipher (protocol.md 1.3, 2.5).  Byte in, byte out: handshake
 * messages are HandshakeMessage protobufs the caller frames with
 * proto/frame.h; ephemeral and static private keys come from the caller,
 * and the server's certificate chain is handed over for proto/cert.h to
 * verify.  No clock, no random source, no I/O.  A state belongs to one
 * thread at a time (the engine thread).
 *
 * Initiator                          Responder
 *   wa_noise_init(INITIATOR)           wa_noise_init(RESPONDER)
 *   wa_noise_client_hello()    --->    wa_noise_read_client_hello()
 *   wa_noise_read_server_hello() <---  wa_noise_server_hello()
 *     (verify the chain: wa_cert_verify)
 *   wa_noise_client_finish()   --->    wa_noise_read_client_finish()
 *   wa_noise_split()                   wa_noise_split()
 *
 * Any error leaves the handshake state failed: later calls return
 * WC_ESTATE, and the connection is to be closed.
 */
#ifndef WA_NOISE_H
#define WA_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "proto/crypto.h"

/* The pattern name, 28 characters and 4 zero bytes: the initial h as is. */
#define WA_NOISE_PATTERN	"Noise_XX_25519_AESGCM_SHA256\0\0\0\0"
#define WA_NOISE_PROLOGUE	"WA\x06\x03"	/* = WA_FRAME_CONN_HEADER */
#define WA_NOISE_PROLOGUE_LEN	4
#define WA_NOISE_STATIC_CT_LEN	(WA_CRYPTO_KEY_LEN + WA_CRYPTO_GCM_TAG_LEN)
#define WA_NOISE_OVERHEAD	WA_CRYPTO_GCM_TAG_LEN	/* per frame */

enum wa_noise_role {
	WA_NOISE_INITIATOR,	/* the client: wachat */
	WA_NOISE_RESPONDER,	/* the server: wachat-sim */
};

/* What a handshake state expects next. */
enum wa_noise_step {
	WA_NOISE_STEP_HELLO,	/* client_hello / read_client_hello */
	WA_NOISE_STEP_SERVER,	/* read_server_hello / server_hello */
	WA_NOISE_STEP_FINISH,	/* client_finish / read_client_finish */
	WA_NOISE_STEP_SPLIT,	/* split */
	WA_NOISE_STEP_DEAD,	/* split, released, or failed */
};

/* Handshake state (Noise's SymmetricState plus our ephemeral key).
 * Fields are private to noise.c; tests read h. */
struct wa_noise {
	enum wa_noise_role	 role;
	enum wa_noise_step	 step;
	uint32_t		 n;	/* k's nonce counter; MixKey zeroes */
	uint8_t			 h[WA_CRYPTO_HASH_LEN];	/* handshake hash */
	uint8_t			 ck[WA_CRYPTO_HASH_LEN]; /* chaining key */
	uint8_t			 k[WA_CRYPTO_KEY_LEN];	/* cipher key */
	uint8_t			 e_priv[WA_CRYPTO_KEY_LEN]; /* our ephemeral */
	uint8_t			 re[WA_CRYPTO_KEY_LEN];	/* peer's ephemeral */
	struct wa_crypto_gcm	 aead;	/* k's cipher, one context throughout */
};

/* Transport state after the handshake: one key and counter per direction. */
struct wa_noise_transport {
	struct wa_crypto_gcm	 send;
	struct wa_crypto_gcm	 recv;
	/* The next counter of each direction; above UINT32_MAX: spent. */
	uint64_t		 send_n;
	uint64_t		 recv_n;
};

/*
 * Start a handshake for role: h = WA_NOISE_PATTERN, ck = h, then
 * MixHash(WA_NOISE_PROLOGUE) (protocol.md 2.1).  hs must be new or
 * released.  Release with wa_noise_release() (wa_noise_split() and any
 * error release it too; releasing twice is harmless).
 */
void		wa_noise_init(struct wa_noise *hs, enum wa_noise_role role);

/*
 * Initiator, message 1 (protocol.md 2.3 steps 2-3): take the ephemeral
 * private key e_priv (32 fresh random bytes; copied, and wiped with hs),
 * MixHash its public key, and append HandshakeMessage{clientHello{
 * ephemeral}} to out (frame it with a client wa_frame_writer, which puts
 * the connection header first).  Returns 0.  Errors: WC_ESTATE (wrong role
 * or step); out untouched on error.
 */
MUST_CHECK int	wa_noise_client_hello(struct wa_noise *hs,
		    const uint8_t e_priv[WA_CRYPTO_KEY_LEN], struct buf *out);

/*
 * Initiator, message 2 (steps 4-9): read the server's HandshakeMessage
 * p[0..len) (one frame's payload), decrypt the server's static key into
 * server_static and the certificate chain, which is appended to cert (a
 * CertChain for wa_cert_verify(), with server_static as the expected leaf
 * key).  Returns 0.  Errors: WC_ETRUNC, WC_EPROTO, WC_EDEPTH (not a
 * protobuf), WC_EHSMSG (no serverHello), WC_EHSEPHEMERAL (ephemeral not
 * 32 bytes), WC_EHSSTATIC (static not 48 bytes), WC_EHSPAYLOAD (payload
 * missing or under 16 bytes), WC_ELOWORDER (a low-order key), WC_EBADMAC
 * (a key or payload that does not decrypt: tampering or the wrong
 * server), WC_ETOOBIG (a payload over WA_CRYPTO_GCM_MAX_LEN, which no
 * frame can carry), WC_ESTATE, WC_ECRYPTO.  server_static and cert
 * untouched on error.
 */
MUST_CHECK int	wa_noise_read_server_hello(struct wa_noise *hs,
		    const uint8_t *p, size_t len,
		    uint8_t server_static[WA_CRYPTO_KEY_LEN], struct buf *cert);

/*
 * Initiator, message 3 (steps 10-13): encrypt our static public key (from
 * the private key s_priv, the stored noise key) and payload[0..len) (the
 * packed ClientPayload, protocol.md 3), and append HandshakeMessage{
 * clientFinish{static, payload}} to out.  Then call wa_noise_split().
 * Returns 0.  Errors: WC_ESTATE, WC_ELOWORDER, WC_ETOOBIG (len over
 * WA_CRYPTO_GCM_MAX_LEN), WC_ECRYPTO; out untouched on error.
 */
MUST_CHECK int	wa_noise_client_finish(struct wa_noise *hs,
		    const uint8_t s_priv[WA_CRYPTO_KEY_LEN],
		    const uint8_t *payload, size_t len, struct buf *out);

/*
 * Responder, message 1: read the client's HandshakeMessage p[0..len) and
 * MixHash its ephemeral key.  Other ClientHello fields (those of other
 * patterns) are ignored.  Returns 0.  Errors: WC_ETRUNC, WC_EPROTO,
 * WC_EDEPTH, WC_EHSMSG (no clientHello), WC_EHSEPHEMERAL, WC_ESTATE.
 */
MUST_CHECK int	wa_noise_read_client_hello(struct wa_noise *hs,
		    const uint8_t *p, size_t len);

/*
 * Responder, message 2: with the ephemeral private key e_priv (fresh
 * random; copied, wiped with hs) and the server's static private key
 * s_priv, append HandshakeMessage{serverHello{ephemeral, static, payload}}
 * to out, the payload being cert[0..cert_len) (a packed CertChain, see
 * wa_cert_issue()) encrypted.  Returns 0.  Errors: WC_ESTATE,
 * WC_ELOWORDER (the client's ephemeral is a low-order point), WC_ETOOBIG,
 * WC_ECRYPTO; out untouched on error.
 */
MUST_CHECK int	wa_noise_server_hello(struct wa_noise *hs,
		    const uint8_t e_priv[WA_CRYPTO_KEY_LEN],
		    const uint8_t s_priv[WA_CRYPTO_KEY_LEN],
		    const uint8_t *cert, size_t cert_len, struct buf *out);

/*
 * Responder, message 3: read the client's HandshakeMessage p[0..len),
 * decrypt its static public key into client_static (the noise key the
 * server checks against the registered one) and the ClientPayload, which
 * is appended to payload.  Then call wa_noise_split().  Returns 0.
 * Errors: WC_ETRUNC, WC_EPROTO, WC_EDEPTH, WC_EHSMSG (no clientFinish),
 * WC_EHSSTATIC, WC_EHSPAYLOAD, WC_ELOWORDER, WC_EBADMAC, WC_ETOOBIG,
 * WC_ESTATE, WC_ECRYPTO.  client_static and payload untouched on error.
 */
MUST_CHECK int	wa_noise_read_client_finish(struct wa_noise *hs,
		    const uint8_t *p, size_t len,
		    uint8_t client_static[WA_CRYPTO_KEY_LEN],
		    struct buf *payload);

/*
 * Both roles, after message 3: derive the two transport keys (protocol.md
 * 2.5; the responder's are the initiator's swapped) into t, counters at 0,
 * and wipe hs (it is then released).  Release t with
 * wa_noise_transport_release().  Returns 0.  Errors: WC_ESTATE (the
 * handshake is not complete), WC_ECRYPTO; t untouched on error.
 */
MUST_CHECK int	wa_noise_split(struct wa_noise *hs,
		    struct wa_noise_transport *t);

/* Wipe hs's keys and hash; safe at any step and twice. */
void		wa_noise_release(struct wa_noise *hs);

/*
 * Encrypt one frame's plaintext p[0..len) (flags byte ‖ node bytes,
 * protocol.md 1.3) into out[0..len + WA_NOISE_OVERHEAD), with the next
 * send counter as nonce and empty AAD.  out may equal p; it may be the
 * space wa_frame_reserve() leaves.  Allocates nothing.  Returns 0.
 * Errors: WC_ENONCE (counter 2^32-1 has been used: close the connection;
 * every later call fails too), WC_ETOOBIG (len above
 * WA_CRYPTO_GCM_MAX_LEN; the counter is not used), WC_ECRYPTO.
 */
MUST_CHECK int	wa_noise_encrypt(struct wa_noise_transport *t,
		    const uint8_t *p, size_t len, uint8_t *out);

/*
 * Decrypt one frame's payload c[0..len) into out[0..len -
 * WA_NOISE_OVERHEAD) with the next receive counter.  The counter advances
 * whether or not the frame decrypts, as the peer's did when it sent it.
 * out may equal c.  Allocates nothing.  Returns 0.  Errors: WC_ETRUNC
 * (len < 16), WC_EBADMAC (tampered, out of order or from another session;
 * out zeroed), WC_ENONCE (counter spent), WC_ETOOBIG, WC_ECRYPTO.  After
 * an error the connection should be closed.
 */
MUST_CHECK int	wa_noise_decrypt(struct wa_noise_transport *t,
		    const uint8_t *c, size_t len, uint8_t *out);

/* Wipe and free t's keys; safe twice. */
void		wa_noise_transport_release(struct wa_noise_transport *t);

#endif
