/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/engver.h -- the engine's look-up of the current WhatsApp Web
 * version when the server refuses ours as outdated (failure 405,
 * protocol.md 3.3): an HTTP GET of WhatsApp Web's page with libcurl on a
 * libuv worker thread, as a browser's navigation asks for it, and the
 * pure scraper of "client_revision" in it (or in sw.js, the other place
 * that carries it).
 *
 * Thread contract: wa_engver_parse() is pure (any thread).
 * wa_engver_lookup() and wa_engver_cancel() run on the loop's thread, and
 * the callback runs there too; only the transfer runs on the worker.
 */
#ifndef WA_ENGVER_H
#define WA_ENGVER_H

#include <stddef.h>
#include <stdint.h>

struct uv_loop_s;
struct wa_engver;

/* The page itself, as [WM] update.go GetLatestVersion reads it: the
 * navigation headers below are what a browser sends for a page, not for
 * a script ([BL] fetchLatestWaWebVersion reads sw.js with only
 * sec-fetch-site and a User-Agent, "the minimal headers to bypass the
 * anti-bot detection"). */
#define WA_ENGVER_DEFAULT_URL	"https://web.whatsapp.com/"
#define WA_ENGVER_MAX_BODY	(4u << 20)	/* bytes of the page read */
/* A browser's top-level navigation, header by header as [WM] sends it
 * (update.go GetLatestVersion): without Sec-Fetch-* the server may
 * answer a bot check without the version. */
#define WA_ENGVER_UA		"Mozilla/5.0 (X11; Linux x86_64) " \
	"AppleWebKit/537.36 (KHTML, like Gecko) Chrome/148.0.0.0 " \
	"Safari/537.36"
#define WA_ENGVER_TIMEOUT_MS	15000	/* the whole transfer */

/*
 * Find "client_revision":DIGITS in p[0..len) (not NUL-terminated), the
 * quotes possibly backslash-escaped and blanks allowed after the colon
 * (the regex \\?"client_revision\\?":\s*(\d+) of [BL] and [RS]).
 * Returns 0 and *rev for the first match.  Errors: -ENOENT (no match),
 * WC_ETOOBIG (the number does not fit 32 bits, as AppVersion's tertiary
 * must); *rev untouched on error.
 */
MUST_CHECK int	wa_engver_parse(const char *p, size_t len, uint32_t *rev);

/*
 * Called once on the loop's thread with err 0 and the revision, or a
 * negative code and why (in words, borrowed for the call).
 */
typedef void	(*wa_engver_done_fn)(void *arg, int err, uint32_t rev,
		    const char *why);

/*
 * Start a GET of url (http:// or https://; NULL = WA_ENGVER_DEFAULT_URL)
 * on a worker thread, with a browser's navigation headers (User-Agent
 * WA_ENGVER_UA, Accept, Accept-Language, Sec-Fetch-Dest document,
 * Sec-Fetch-Mode navigate, Sec-Fetch-Site none, Sec-Fetch-User ?1, as
 * [WM]): at most WA_ENGVER_MAX_BODY bytes, redirects
 * followed (3 at most), done within timeout_ms (0 = WA_ENGVER_TIMEOUT_MS);
 * https trusts the system CAs and, when ca_file is not NULL, the PEM CAs
 * in it too.  done is called later, unless wa_engver_cancel() comes
 * first.  Strings are copied.  Returns 0 and *out.  Errors: -EINVAL
 * (url not http(s)), those of uv_queue_work(); *out untouched on error.
 */
MUST_CHECK int	wa_engver_lookup(struct uv_loop_s *loop, const char *url,
		    const char *ca_file, uint32_t timeout_ms,
		    wa_engver_done_fn done, void *arg, struct wa_engver **out);

/*
 * Give the look-up up: done is not called, the transfer ends soon, and
 * the memory goes when the worker returns (keep running the loop).  NULL
 * is a no-op.
 */
void		wa_engver_cancel(struct wa_engver *l);

#endif
