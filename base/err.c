/* SPDX-License-Identifier: GPL-3.0-or-later */
/* base/err.c -- error code descriptions. */
#include "base/compat.h"

#include <string.h>

#include "base/err.h"
#include "base/i18n.h"

const char *
wc_strerror(int err)
{
	switch ((enum wc_err)err) {
	case WC_EPROTO:
		return _("protocol violation by the peer");
	case WC_ETRUNC:
		return _("input ends inside a field");
	case WC_EDEPTH:
		return _("nesting deeper than the limit");
	case WC_ETOOBIG:
		return _("length above the limit");
	case WC_EBADMAC:
		return _("authentication tag mismatch");
	case WC_ELOGGEDOUT:
		return _("logged out by the server");
	case WC_ESCHEMA:
		return _("database written by a newer wachat");
	case WC_ETOKEN:
		return _("unknown dictionary token");
	case WC_EINFLATE:
		return _("compressed frame does not inflate");
	case WC_EINVAL:
		return _("value cannot be encoded");
	case WC_ETRAILING:
		return _("bytes left after the node");
	case WC_ECRYPTO:
		return _("crypto library failure");
	case WC_EBADSIG:
		return _("signature does not verify");
	case WC_ELOWORDER:
		return _("peer key is a low-order point");
	case WC_ENONCE:
		return _("Noise counter exhausted; reconnect");
	case WC_ESTATE:
		return _("call out of order for the state");
	case WC_EHSMSG:
		return _("handshake message lacks the expected part");
	case WC_EHSEPHEMERAL:
		return _("handshake ephemeral key is not 32 bytes");
	case WC_EHSSTATIC:
		return _("handshake encrypted static key is not 48 bytes");
	case WC_EHSPAYLOAD:
		return _("handshake payload missing or too short");
	case WC_ECERTFORMAT:
		return _("malformed certificate chain");
	case WC_ECERTROOT:
		return _("certificate chain not signed by the trusted root");
	case WC_ECERTSIG:
		return _("leaf certificate not signed by the intermediate");
	case WC_ECERTISSUER:
		return _("wrong issuer serial");
	case WC_ECERTKEY:
		return _("leaf key is not the server's static key");
	case WC_ECERTEXPIRED:
		return _("certificate expired");
	case WC_ECERTNOTYET:
		return _("certificate not yet valid");
	case WC_ECONNECT:
		return _("cannot connect to the server");
	case WC_ECLOSED:
		return _("the server closed the connection");
	case WC_EDUPMSG:
		return _("Signal message already decrypted");
	case WC_ENOSESSION:
		return _("no Signal session with that device");
	case WC_EBADMSG:
		return _("invalid Signal message");
	case WC_ENOKEY:
		return _("the message names a prekey we no longer have");
	case WC_EBADKEY:
		return _("invalid Signal key or signature");
	case WC_EUNTRUSTED:
		return _("untrusted identity key");
	case WC_ENOSENDERKEY:
		return _("no sender key for that group member");
	case WC_EENCHASH:
		return _("downloaded file does not match its hash");
	case WC_EPADDING:
		return _("bad padding in decrypted media");
	case WC_EFILEHASH:
		return _("decrypted file does not match its hash");
	}
	if (err == 0)
		return _("success");
	if (err <= -1000 && err > -10000)
		return _("libsignal error");
	if (err < 0 && err > -1000)
		return strerror(-err);
	return _("unknown error");
}
