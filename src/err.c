/* SPDX-License-Identifier: GPL-3.0-or-later */
/* src/err.c -- error code descriptions. */
#include "compat.h"

#include <string.h>

#include "err.h"

const char *
wc_strerror(int err)
{
	switch ((enum wc_err)err) {
	case WC_EPROTO:
		return "protocol violation by the peer";
	case WC_ETRUNC:
		return "input ends inside a field";
	case WC_EDEPTH:
		return "nesting deeper than the limit";
	case WC_ETOOBIG:
		return "length above the limit";
	case WC_EBADMAC:
		return "authentication tag mismatch";
	case WC_ELOGGEDOUT:
		return "logged out by the server";
	case WC_ESCHEMA:
		return "database written by a newer wachat";
	case WC_ETOKEN:
		return "unknown dictionary token";
	case WC_EINFLATE:
		return "compressed frame does not inflate";
	case WC_EINVAL:
		return "value cannot be encoded";
	case WC_ETRAILING:
		return "bytes left after the node";
	case WC_ECRYPTO:
		return "crypto library failure";
	case WC_EBADSIG:
		return "signature does not verify";
	case WC_ELOWORDER:
		return "peer key is a low-order point";
	case WC_ENONCE:
		return "Noise counter exhausted; reconnect";
	case WC_ESTATE:
		return "call out of order for the state";
	case WC_EHSMSG:
		return "handshake message lacks the expected part";
	case WC_EHSEPHEMERAL:
		return "handshake ephemeral key is not 32 bytes";
	case WC_EHSSTATIC:
		return "handshake encrypted static key is not 48 bytes";
	case WC_EHSPAYLOAD:
		return "handshake payload missing or too short";
	case WC_ECERTFORMAT:
		return "malformed certificate chain";
	case WC_ECERTROOT:
		return "certificate chain not signed by the trusted root";
	case WC_ECERTSIG:
		return "leaf certificate not signed by the intermediate";
	case WC_ECERTISSUER:
		return "wrong issuer serial";
	case WC_ECERTKEY:
		return "leaf key is not the server's static key";
	case WC_ECERTEXPIRED:
		return "certificate expired";
	case WC_ECERTNOTYET:
		return "certificate not yet valid";
	case WC_ECONNECT:
		return "cannot connect to the server";
	case WC_ECLOSED:
		return "the server closed the connection";
	}
	if (err == 0)
		return "success";
	if (err <= -1000 && err > -10000)
		return "libsignal error";
	if (err < 0 && err > -1000)
		return strerror(-err);
	return "unknown error";
}
