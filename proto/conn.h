/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/conn.h -- the client transport: a WebSocket to WhatsApp (or any
 * ws:// or wss:// URL) through libwebsockets on the engine's libuv loop,
 * the frame layer (proto/frame.h) and the Noise handshake as the initiator
 * (proto/noise.h) with the server's certificate chain checked
 * (proto/cert.h), then encrypted frames both ways (protocol.md 1-3).  It
 * also builds the ClientPayload for a registration or a login (protocol.md
 * 3).  The only file of proto/ that touches libuv and TLS.  No reconnect
 * policy: the engine above decides when to open again.
 *
 * Thread contract: every function, and every callback, runs on the thread
 * that runs the loop given to wa_conn_new() (the engine thread), except
 * wa_conn_payload_*(), which are pure and callable from any thread.
 *
 * Lifecycle:
 *   wa_conn_new()  -> wa_conn_open() -> on_open -> wa_conn_send() ...
 *                                    -> on_close(err, reason)  (once)
 *                     wa_conn_close()  (ends it without on_close)
 *                     wa_conn_open() again (reconnect: new socket, new
 *                     handshake, fresh ephemeral key)
 *   wa_conn_free() -> run the loop until it has no handles left.
 */
#ifndef WA_CONN_H
#define WA_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

struct uv_loop_s;
struct wa_conn;

#define WA_CONN_DEFAULT_URL	"wss://web.whatsapp.com/ws/chat"
#define WA_CONN_ORIGIN		"https://web.whatsapp.com"
#define WA_CONN_DEFAULT_VERSION	"2.3000.1045649367"	/* protocol.md 3.3 */
/* DeviceProps.PlatformType DESKTOP (protocol.md 3.4): the phone's Linked
 * devices list then names the companion by DeviceProps.os alone (a
 * browser type shows "<Browser> (<os>)", UNKNOWN "Other device"). */
#define WA_CONN_PLATFORM_DESKTOP	7
/* DeviceProps.historySyncConfig.thumbnailSyncDaysLimit ([WM]). */
#define WA_CONN_THUMBNAIL_DAYS		60
/* The deadline of each state before on_open (protocol.md 2.3 step 4:
 * 20 s in whatsmeow, connectTimeoutMs 20 s in Baileys). */
#define WA_CONN_HANDSHAKE_TIMEOUT_MS 20000
#define WA_CONN_URL_MAX		1024	/* bytes of a URL setting */
#define WA_CONN_KEY_LEN		32

/* The injected random source: fill p[0..len) with fresh CSPRNG bytes and
 * return 0, or a negative code (the connection attempt then fails). */
typedef int	(*wa_conn_rng_fn)(void *arg, uint8_t *p, size_t len);
/* The injected clock: the time in ms since the Unix epoch, UTC. */
typedef int64_t	(*wa_conn_clock_fn)(void *arg);

/*
 * Events.  All are called on the loop thread from inside the loop, with
 * cb_arg; each may call wa_conn_send(), wa_conn_close(), wa_conn_open() (in
 * on_close) and wa_conn_free().
 */
struct wa_conn_events {
	/* The handshake is done and the server's chain verified: frames may
	 * now be sent. */
	void	(*on_open)(void *arg);
	/*
	 * One decrypted frame payload p[0..len): the flags byte, then the node
	 * bytes (protocol.md 1.3; decode with wa_bin_unpack()).  Borrowed for
	 * the call.
	 */
	void	(*on_frame)(void *arg, const uint8_t *p, size_t len);
	/*
	 * The connection ended: called exactly once for every wa_conn_open()
	 * that returned 0, unless wa_conn_close() or wa_conn_free() came
	 * first.  err is negative: WC_ECONNECT (cannot connect: refused, DNS,
	 * TLS, HTTP upgrade refused, the socket reset or closed before the
	 * upgrade), WC_ECLOSED (the server closed or reset the connection;
	 * after the handshake this is the normal end), WC_EPROTO (a bad
	 * WebSocket frame, which libwebsockets closed on), -ETIMEDOUT (a
	 * state passed its deadline: the TCP connect, the TLS handshake, the
	 * WebSocket upgrade or the Noise handshake, each
	 * handshake_timeout_ms), the
	 * WC_ECERT* codes of wa_cert_verify() (certificate problems),
	 * WC_EHS* and WC_EBADMAC from the handshake, WC_ETOOBIG (a frame
	 * longer than max_frame), WC_ETRUNC (the stream ended inside a frame,
	 * or a frame shorter than its authentication tag), WC_EBADMAC (a frame
	 * that does not decrypt), WC_ENONCE (the counters ran out), or the
	 * RNG's error.  reason is a short English phrase that says all that
	 * happened, err's own words included where they help, so that it is
	 * shown alone ("cannot connect to HOST:PORT: Connection refused",
	 * "...: the server reset the connection during the WebSocket
	 * upgrade", "...: not a WebSocket server (HTTP status 404)", "...:
	 * TLS handshake failed: OPENSSL'S REASON", "timed out in the Noise
	 * handshake (no progress within N ms)", "bad ServerHello:
	 * authentication tag mismatch", ...; never ""), borrowed for the
	 * call.  After on_close the wa_conn is idle: wa_conn_open()
	 * may be called again (from on_close too).
	 */
	void	(*on_close)(void *arg, int err, const char *reason);
	void	*arg;
};

/* Settings; strings and keys are copied by wa_conn_new(). */
struct wa_conn_cfg {
	const char		*url;	/* ws:// or wss://; NULL = WA_CONN_DEFAULT_URL */
	const char		*ca_file; /* extra PEM CA file for wss://, added to
					   * the system CAs; NULL = none */
	const uint8_t		*root_pub; /* 32-byte trusted root key; NULL =
					    * WA_CERT_WHATSAPP_ROOT */
	size_t			 max_frame; /* bytes of a received frame; 0 =
					     * WA_FRAME_MAX_LEN */
	uint32_t		 handshake_timeout_ms; /* the deadline of each
						* state before on_open, ms;
						* 0 = the default */
	wa_conn_rng_fn		 rng;		/* required */
	void			*rng_arg;
	wa_conn_clock_fn	 now_ms;	/* required */
	void			*clock_arg;
	struct wa_conn_events	 ev;
};

/*
 * Create a connection object on loop (not connected yet): the
 * libwebsockets context joins the loop (as a foreign loop) and stays until
 * wa_conn_free().  Returns 0 and *out.  Errors: -EINVAL (no rng or clock,
 * a URL that is not ws:// or wss:// host[:port][/path], or longer than
 * WA_CONN_URL_MAX), -ENOMEM (libwebsockets could not create its context,
 * e.g. its libuv plugin is missing).  *out untouched on error.
 */
MUST_CHECK int	wa_conn_new(struct uv_loop_s *loop,
		    const struct wa_conn_cfg *cfg, struct wa_conn **out);

/*
 * Start a connection: WebSocket to the URL with Origin WA_CONN_ORIGIN, then
 * the handshake as the initiator with the long-term Noise key noise_priv
 * (32 bytes) and the packed ClientPayload payload[0..len) (see
 * wa_conn_payload_*()); both are copied.  Returns 0; on_open or on_close
 * follows from the loop, never from inside this call.  Errors: -EBUSY (a
 * connection is open or opening: wa_conn_close() it first), -EINVAL (len
 * 0 or above 64 KiB), -ESHUTDOWN (wa_conn_free() was called).
 */
MUST_CHECK int	wa_conn_open(struct wa_conn *c,
		    const uint8_t noise_priv[WA_CONN_KEY_LEN],
		    const uint8_t *payload, size_t len);

/*
 * Send one node: node[0..len) are encoded node bytes (wa_bin_encode(), no
 * flags byte); the frame carries flags 0x00 (uncompressed) ‖ node,
 * encrypted with the next send counter.  Queued; written when the socket
 * is writable.  Returns 0.  Errors: -ENOTCONN (no open connection: before
 * on_open or after on_close), WC_ETOOBIG (the frame would exceed
 * WA_FRAME_MAX_LEN), WC_ENONCE (the send counter ran out: the connection
 * is closed and on_close follows).
 */
MUST_CHECK int	wa_conn_send(struct wa_conn *c, const uint8_t *node,
		    size_t len);

/* True between on_open and the end of that connection. */
bool		wa_conn_is_open(const struct wa_conn *c);

/*
 * End the current connection, if any, without calling on_close: the socket
 * is closed from the loop, queued frames are dropped, keys wiped.  The
 * wa_conn is idle at once (wa_conn_open() may follow).
 */
void		wa_conn_close(struct wa_conn *c);

/*
 * Close any connection (without on_close) and destroy c.  No callback is
 * called after this returns.  The teardown of the libwebsockets context
 * completes in the loop: keep running the loop (uv_run) until it has no
 * active handles, then uv_loop_close() returns 0.  NULL is a no-op.
 */
void		wa_conn_free(struct wa_conn *c);

/*
 * Route libwebsockets' own log lines (process-wide: a setting of the
 * library) to emit, for the levels in mask (LLL_ERR = 1, LLL_WARN = 2,
 * LLL_NOTICE = 4, ...); mask 0 silences it.  lws prints to stderr
 * otherwise, which a curses UI cannot have.  Call before wa_conn_new().
 */
void		wa_conn_set_lws_log(int mask, void (*emit)(int level,
		    const char *line));

/* --- ClientPayload (protocol.md 3), pure, any thread --- */

/* A companion's registration material (protocol.md 3.2). */
struct wa_conn_reg {
	uint32_t	 reg_id;		/* Signal registration id */
	uint8_t		 ident_pub[WA_CONN_KEY_LEN];	/* identity, raw */
	uint32_t	 spk_id;		/* signed prekey id (24 bits) */
	uint8_t		 spk_pub[WA_CONN_KEY_LEN];	/* signed prekey, raw */
	uint8_t		 spk_sig[64];		/* XEdDSA over 05 ‖ spk_pub */
	const char	*os;		/* DeviceProps.os; NULL = "wachat" */
	int		 platform_type;	/* DeviceProps.PlatformType; 0 = UNKNOWN */
	bool		 full_sync;	/* DeviceProps.requireFullSync: ask the
					 * phone for all history (FULL chunks,
					 * protocol.md 12.1), not the last year */
};

/*
 * Append the packed ClientPayload of a registration (a new companion,
 * protocol.md 3.1-3.4) to out: UserAgent (platform WEB, the version's
 * three numbers, mcc/mnc "000", osVersion "0.1", device "Desktop",
 * locale en/US), WebInfo (WEB_BROWSER), connectType WIFI_UNKNOWN,
 * connectReason USER_ACTIVATED, passive and pull false, and the
 * DevicePairingRegistrationData made from r with buildHash = MD5(version)
 * and the DeviceProps (os, version 0.1.0, platformType, requireFullSync
 * from r; historySyncConfig with storageQuotaMb 10240, the inline
 * payload, the support* flags and thumbnailSyncDaysLimit of [WM]/[RS]).
 * version is "2.3000.N" (NULL =
 * WA_CONN_DEFAULT_VERSION); push_name may be NULL.  Returns 0.  Errors:
 * -EINVAL (version not three dot-separated numbers, each < 2^32; spk_id
 * above 24 bits); out untouched on error.
 */
MUST_CHECK int	wa_conn_payload_reg(const char *version,
		    const struct wa_conn_reg *r, const char *push_name,
		    struct buf *out);

/*
 * Append the packed ClientPayload of a login (a paired companion): as the
 * registration's UserAgent and WebInfo, and username = pn (the account's
 * phone number as an integer), device = device, passive true, pull true,
 * lc 1, lidDbMigrated true (protocol.md 3.1, whatsmeow's values).  Returns
 * 0.  Errors: -EINVAL (a bad version, pn 0); out untouched on error.
 */
MUST_CHECK int	wa_conn_payload_login(const char *version, uint64_t pn,
		    uint32_t device, const char *push_name, struct buf *out);

#endif
