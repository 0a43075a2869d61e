/* SPDX-License-Identifier: GPL-3.0-or-later */
/* base/err.c -- error code descriptions: one message per WC_E* code. */
#include "base/compat.h"

#include <string.h>

#include "base/err.h"
#include "base/i18n.h"

/* The message of each WC_E* code, marked for translation here and
 * translated when returned. */
static const struct {
	enum wc_err	 code;
	const char	*text;
} msgs[] = {
	{ WC_EPROTO, N_("protocol violation by the peer") },
	{ WC_ETRUNC, N_("input ends inside a field") },
	{ WC_EDEPTH, N_("nesting deeper than the limit") },
	{ WC_ETOOBIG, N_("length above the limit") },
	{ WC_EBADMAC, N_("authentication tag mismatch") },
	{ WC_ELOGGEDOUT, N_("logged out by the server") },
	{ WC_ESCHEMA, N_("database written by a newer wachat") },
	{ WC_ETOKEN, N_("unknown dictionary token") },
	{ WC_EINFLATE, N_("compressed frame does not inflate") },
	{ WC_EINVAL, N_("value cannot be encoded") },
	{ WC_ETRAILING, N_("bytes left after the node") },
	{ WC_ECRYPTO, N_("crypto library failure") },
	{ WC_EBADSIG, N_("signature does not verify") },
	{ WC_ELOWORDER, N_("peer key is a low-order point") },
	{ WC_ENONCE, N_("Noise counter exhausted; reconnect") },
	{ WC_ESTATE, N_("call out of order for the state") },
	{ WC_EHSMSG, N_("handshake message lacks the expected part") },
	{ WC_EHSEPHEMERAL, N_("handshake ephemeral key is not 32 bytes") },
	{ WC_EHSSTATIC, N_("handshake encrypted static key is not 48 bytes") },
	{ WC_EHSPAYLOAD, N_("handshake payload missing or too short") },
	{ WC_ECERTFORMAT, N_("malformed certificate chain") },
	{ WC_ECERTROOT,
	    N_("certificate chain not signed by the trusted root") },
	{ WC_ECERTSIG, N_("leaf certificate not signed by the intermediate") },
	{ WC_ECERTISSUER, N_("wrong issuer serial") },
	{ WC_ECERTKEY, N_("leaf key is not the server's static key") },
	{ WC_ECERTEXPIRED, N_("certificate expired") },
	{ WC_ECERTNOTYET, N_("certificate not yet valid") },
	{ WC_ECONNECT, N_("cannot connect to the server") },
	{ WC_ECLOSED, N_("the server closed the connection") },
	{ WC_EDUPMSG, N_("Signal message already decrypted") },
	{ WC_ENOSESSION, N_("no Signal session with that device") },
	{ WC_EBADMSG, N_("invalid Signal message") },
	{ WC_ENOKEY, N_("the message names a prekey we no longer have") },
	{ WC_EBADKEY, N_("invalid Signal key or signature") },
	{ WC_EUNTRUSTED, N_("untrusted identity key") },
	{ WC_ENOSENDERKEY, N_("no sender key for that group member") },
	{ WC_EENCHASH, N_("downloaded file does not match its hash") },
	{ WC_EPADDING, N_("bad padding in decrypted media") },
	{ WC_EFILEHASH, N_("decrypted file does not match its hash") },
	{ WC_EDBEMPTY, N_("the database file is empty") },
	{ WC_EDBNOTDB, N_("the database file is not a database") },
	{ WC_EDBMALFORMED, N_("the database is malformed") },
	{ WC_ELOCKED, N_("another process holds the lock") },
	{ WC_EBADRECORD, N_("a stored record is damaged") },
	{ WC_EDBNOKEYS, N_("the database holds chats but no keys") },
	{ WC_EASNOKEY, N_("an app-state key is missing") },
	{ WC_EASHASH, N_("the app state does not match its snapshot MAC") },
	{ WC_EASPATCHMAC, N_("an app-state patch MAC does not match") },
	{ WC_EASINDEX, N_("an app-state index does not match its MAC") },
};

/* Every code has its message: a new code (added above WC_ELAST) widens
 * the range, so this fails until its message is in the table. */
_Static_assert(sizeof(msgs) / sizeof(msgs[0]) ==
    WC_ELAST - WC_EPROTO, "a WC_E* code without its message");

const char *
wc_strerror(int err)
{
	size_t	 i;

	for (i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++)
		if ((int)msgs[i].code == err)
			return _(msgs[i].text);
	if (err == 0)
		return _("success");
	if (err <= -1000 && err > -10000)
		return _("libsignal error");
	if (err < 0 && err > -1000)
		return strerror(-err);
	return _("unknown error");
}
