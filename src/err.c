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
	}
	if (err == 0)
		return "success";
	if (err <= -1000 && err > -10000)
		return "libsignal error";
	if (err < 0 && err > -1000)
		return strerror(-err);
	return "unknown error";
}
