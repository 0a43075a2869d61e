/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/err.h -- the project's error codes.  Functions that can fail return
 * int: 0 is success, a negative value is an error: either a negated errno
 * (equal to libuv's UV_E* on Unix), one of libsignal's SG_ERR_* codes
 * (-1000..-9999), or one of the WC_E* codes below, which lie below
 * libsignal's SG_ERR_MINIMUM as its header reserves for applications.
 * Callable from any thread.
 */
#ifndef WC_ERR_H
#define WC_ERR_H

enum wc_err {
	WC_EPROTO = -10000,	/* the peer broke the protocol */
	WC_ETRUNC,		/* input ended inside a field */
	WC_EDEPTH,		/* nesting deeper than the decoder's cap */
	WC_ETOOBIG,		/* a length above the module's limit */
	WC_EBADMAC,		/* authentication tag mismatch */
	WC_ELOGGEDOUT,		/* the server revoked this companion device */
	WC_ESCHEMA,		/* database written by a newer version */
	WC_ETOKEN,		/* unknown dictionary token */
	WC_EINFLATE,		/* a compressed frame did not inflate */
	WC_EINVAL,		/* a value the encoder cannot represent */
	WC_ETRAILING,		/* bytes left over after a complete node */
	WC_ECRYPTO,		/* the crypto library failed (not the input) */
	WC_EBADSIG,		/* a signature does not verify */
	WC_ELOWORDER,		/* a peer key gives an all-zero X25519 secret */
	WC_ENONCE,		/* a Noise counter would wrap: reconnect */
	WC_ESTATE,		/* a call out of order for the state it is given */
	WC_EHSMSG,		/* handshake message lacks its hello/finish part */
	WC_EHSEPHEMERAL,	/* handshake ephemeral key is not 32 bytes */
	WC_EHSSTATIC,		/* handshake encrypted static is not 48 bytes */
	WC_EHSPAYLOAD,		/* handshake payload missing or shorter than a tag */
	WC_ECERTFORMAT,		/* certificate chain malformed */
	WC_ECERTROOT,		/* certificate chain not signed by the trusted root */
	WC_ECERTSIG,		/* leaf certificate not signed by the intermediate */
	WC_ECERTISSUER,		/* certificate with the wrong issuer serial */
	WC_ECERTKEY,		/* leaf key is not the server's static key */
	WC_ECERTEXPIRED,	/* a certificate's notAfter is before now */
	WC_ECERTNOTYET,		/* a certificate's notBefore is after now */
	WC_ECONNECT,		/* cannot connect (refused, DNS, TLS, upgrade) */
	WC_ECLOSED,		/* the peer closed the connection */
	WC_EDUPMSG,		/* Signal message already decrypted: ack, ignore */
	WC_ENOSESSION,		/* no Signal session with that address */
	WC_EBADMSG,		/* Signal message malformed or fails its MAC */
	WC_ENOKEY,		/* a pkmsg names a prekey we no longer have */
	WC_EBADKEY,		/* a Signal key or prekey signature is invalid */
	WC_EUNTRUSTED,		/* libsignal refused a remote identity */
	WC_ENOSENDERKEY,	/* no sender key for that group sender or key id */
	WC_EENCHASH,		/* a download's SHA-256 is not fileEncSHA256 */
	WC_EPADDING,		/* bad PKCS#7 padding after a MAC that verified */
	WC_EFILEHASH,		/* a plaintext's SHA-256 is not fileSHA256 */
	WC_EDBEMPTY,		/* the database file is empty (0 bytes) */
	WC_EDBNOTDB,		/* the database file is not a database */
	WC_EDBMALFORMED,	/* the database is malformed (damaged) */
	WC_ELOCKED,		/* another process holds the data dir's lock */
	WC_EBADRECORD,		/* a stored record was read but is damaged */
	WC_EDBNOKEYS,		/* the database holds chats but no device
				 * row (its keys are gone) */
	WC_EASNOKEY,		/* an app-state sync key we do not have */
	WC_EASHASH,		/* app state does not give its snapshot MAC */
	WC_EASPATCHMAC,		/* an app-state patch MAC does not verify */
	WC_EASINDEX,		/* an app-state index does not give its MAC */
	WC_ELAST		/* not a code: one past the last; new codes
				 * go above it */
};

/*
 * Describe err (any code above, a negated errno or 0) in English for logs.
 * Returns a static string, never NULL.
 */
const char	*wc_strerror(int err);

#endif
