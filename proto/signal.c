/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/signal.c -- the Signal layer's context (proto/wa-signal.h): a
 * libsignal-protocol-c context with wachat's crypto provider
 * (proto/signal-provider.c), its store callbacks (proto/signal-store.c)
 * and a recursive lock, and the key-making context without stores; the
 * mapping of libsignal's errors, JIDs to libsignal addresses (5.4), and
 * what every call of proto/signal-session.c and proto/signal-group.c
 * wraps around libsignal: the store's transaction, the per-call
 * allocation scope (base/scope-alloc.h) and the copy of its output.  The layer's
 * files are listed in proto/signal-int.h.  No SQL here.
 *
 * Objects libsignal returns to us (ciphertext messages, plaintext
 * buffers, keys we decode) are released by the file that asked for them,
 * with SIGNAL_UNREF or signal_buffer_(bzero_)free.
 */
#include "base/compat.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <signal_protocol.h>

#define LOG_TAG "signal"
#include "base/buf.h"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "base/scope-alloc.h"
#include "proto/signal-int.h"
#include "proto/wa-signal.h"

int
wa_signal_err(int err)
{
	/*
	 * libsignal's own codes are -1000..-1201; the rest of the range it
	 * reserves (down to SG_ERR_MINIMUM) is where base/err.h's WC_E* codes
	 * begin (they count up from -10000), so only that band is mapped.
	 */
	if (err > SG_ERR_UNKNOWN || err <= SG_ERR_UNKNOWN - 1000)
		return err;	/* 0, negative errno or WC_E* */
	switch (err) {
	case SG_ERR_DUPLICATE_MESSAGE:
		return WC_EDUPMSG;
	case SG_ERR_NO_SESSION:
		return WC_ENOSESSION;
	case SG_ERR_INVALID_MESSAGE:
	case SG_ERR_INVALID_MAC:
	case SG_ERR_INVALID_VERSION:
	case SG_ERR_LEGACY_MESSAGE:
	case SG_ERR_INVALID_PROTO_BUF:
	case SG_ERR_STALE_KEY_EXCHANGE:
		return WC_EBADMSG;
	case SG_ERR_INVALID_KEY:
	case SG_ERR_VRF_SIG_VERIF_FAILED:
		return WC_EBADKEY;
	case SG_ERR_INVALID_KEY_ID:
		return WC_ENOKEY;
	case SG_ERR_UNTRUSTED_IDENTITY:
		return WC_EUNTRUSTED;
	default:
		return WC_ECRYPTO;
	}
}

/* ---- the context ------------------------------------------------------ */

static void
p_lock(void *u)
{
	struct wa_signal	*s = u;

	pthread_mutex_lock(&s->lock);
}

static void
p_unlock(void *u)
{
	struct wa_signal	*s = u;

	pthread_mutex_unlock(&s->lock);
}

/* A libsignal context with the provider, for key making. */
struct wa_signal_keygen {
	signal_context		*ctx;
	struct provider		 prov;
};

int
wa_signal_keygen_new(struct wa_signal_keygen **out)
{
	struct wa_signal_keygen	*k = xcalloc(1, sizeof(*k));
	signal_crypto_provider	 p = sig_provider;
	int			 rc;

	p.user_data = &k->prov;
	if ((rc = signal_context_create(&k->ctx, k)) != 0 ||
	    (rc = signal_context_set_crypto_provider(k->ctx, &p)) != 0) {
		wa_signal_keygen_free(k);
		return wa_signal_err(rc);
	}
	*out = k;
	return 0;
}

struct signal_context *
wa_signal_keygen_context(struct wa_signal_keygen *k)
{
	return k->ctx;
}

void
wa_signal_keygen_free(struct wa_signal_keygen *k)
{
	if (k == NULL)
		return;
	if (k->ctx != NULL)
		signal_context_destroy(k->ctx);
	sig_provider_release(&k->prov);
	free(k);
}

int
wa_signal_new(const struct wa_signal_store_ops *ops, wa_signal_clock_fn now_ms,
    void *clock_arg, struct wa_signal **out)
{
	signal_crypto_provider	 p = sig_provider;
	pthread_mutexattr_t	 attr;
	struct wa_signal	*s;
	int			 rc;

	if (ops == NULL || now_ms == NULL || ops->session_load == NULL ||
	    ops->session_store == NULL || ops->session_contains == NULL ||
	    ops->session_delete == NULL || ops->own_load == NULL ||
	    ops->prekey_load == NULL || ops->prekey_remove == NULL ||
	    ops->identity_save == NULL || ops->identity_load == NULL ||
	    ops->tx_begin == NULL || ops->tx_commit == NULL ||
	    ops->tx_rollback == NULL)
		return -EINVAL;
	s = xcalloc(1, sizeof(*s));
	s->ops = ops;
	s->now_ms = now_ms;
	s->clock_arg = clock_arg;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	rc = pthread_mutex_init(&s->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	if (rc != 0) {
		free(s);
		return -rc;
	}
	p.user_data = &s->prov;
	if ((rc = signal_context_create(&s->ctx, s)) != 0 ||
	    (rc = signal_context_set_crypto_provider(s->ctx, &p)) != 0 ||
	    (rc = signal_context_set_locking_functions(s->ctx, p_lock,
	    p_unlock)) != 0 ||
	    (rc = sig_set_stores(s)) != 0)
		goto fail;
	*out = s;
	return 0;
fail:
	wa_signal_free(s);
	return wa_signal_err(rc);
}

void
wa_signal_free(struct wa_signal *s)
{
	if (s == NULL)
		return;
	if (s->store != NULL)
		signal_protocol_store_context_destroy(s->store);
	if (s->ctx != NULL)
		signal_context_destroy(s->ctx);
	sig_provider_release(&s->prov);
	if (s->tmp.p != NULL)
		sodium_memzero(s->tmp.p, s->tmp.cap);
	buf_release(&s->tmp);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/* ---- addresses -------------------------------------------------------- */

static const struct {
	const char	*server;
	int		 domain;	/* the "_N" suffix; 0: none */
} servers[] = {
	{ JID_SERVER_PN, 0 },
	{ JID_SERVER_PLAIN, 0 },	/* legacy PN server (5.1) */
	{ JID_SERVER_LID, 1 },
	{ JID_SERVER_HOSTED, 128 },
	{ JID_SERVER_HOSTED_LID, 129 },
};

/* A decimal 0..255 in [p, end), without leading zeros. */
static int
parse_small(const char *p, const char *end, uint32_t *out)
{
	uint32_t	 v = 0;

	if (p == end || (p[0] == '0' && end - p > 1) || end - p > 3)
		return WC_EINVAL;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return WC_EINVAL;
		v = v * 10 + (uint32_t)(*p - '0');
	}
	if (v > WA_SIGNAL_DEVICE_MAX)
		return WC_EINVAL;
	*out = v;
	return 0;
}

int
wa_signal_addr_from_jid(const char *jid, size_t len, struct wa_signal_addr *out)
{
	const char	*at, *colon, *dot, *user_end, *srv;
	size_t		 ulen, slen, i;
	uint32_t	 device = 0, agent;
	int		 domain = -1;

	if (jid == NULL || len == 0 ||
	    (at = memchr(jid, '@', len)) == NULL)
		return WC_EINVAL;
	srv = at + 1;
	slen = len - (size_t)(srv - jid);
	for (i = 0; i < sizeof(servers) / sizeof(servers[0]); i++)
		if (strlen(servers[i].server) == slen &&
		    memcmp(servers[i].server, srv, slen) == 0)
			domain = servers[i].domain;
	if (domain < 0)
		return WC_EINVAL;
	colon = memchr(jid, ':', (size_t)(at - jid));
	user_end = colon != NULL ? colon : at;
	/* A legacy text agent ("user.N", 5.2): the server alone decides the
	 * domain ([WM] ActualAgent), so the agent is checked and dropped. */
	if ((dot = memchr(jid, '.', (size_t)(user_end - jid))) != NULL) {
		if (parse_small(dot + 1, user_end, &agent) != 0)
			return WC_EINVAL;
		user_end = dot;
	}
	ulen = (size_t)(user_end - jid);
	if (ulen == 0 || ulen > WA_SIGNAL_USER_MAX)
		return WC_EINVAL;
	for (i = 0; i < ulen; i++)
		if (jid[i] < '0' || jid[i] > '9')
			return WC_EINVAL;
	if (colon != NULL && parse_small(colon + 1, at, &device) != 0)
		return WC_EINVAL;
	memcpy(out->name, jid, ulen);
	if (domain != 0)
		snprintf(out->name + ulen, sizeof(out->name) - ulen, "_%d",
		    domain);
	else
		out->name[ulen] = '\0';
	out->device = device;
	return 0;
}

/* ---- around every call: the transaction, the scope, the output ------- */

/* Commit on success (rc == 0), else roll back; returns the first error. */
int
sig_tx_end(struct wa_signal *s, int rc)
{
	bool	 ar = scope_alloc_pause();	/* the store, the log */
	int	 rc2;

	if (rc == 0 && (rc = s->ops->tx_commit(s->ops->arg)) == 0) {
		scope_alloc_resume(ar);
		return 0;
	}
	if ((rc2 = s->ops->tx_rollback(s->ops->arg)) != 0)
		log_error("rolling back Signal state: %s", wc_strerror(rc2));
	scope_alloc_resume(ar);
	return rc;
}

/*
 * Close the arena scope of a wa_signal_* call, once every libsignal
 * object it made is freed.  Blocks that outlived it (none expected: a
 * libsignal object kept past the call) keep their chunk alive; said once.
 */
void
sig_scope_leave(void)
{
	static bool	 said;
	size_t		 n;

	if ((n = scope_alloc_leave()) != 0 &&
	    !__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		log_warn("%zu libsignal allocations outlived their call "
		    "(their arena chunk is kept)", n);
}

