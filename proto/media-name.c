/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-name.c -- safe names and free paths for downloaded media,
 * and the size settings (proto/media-name.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "proto/media-name.h"

static const struct {
	const char	*mime;
	const char	*ext;
} exts[] = {
	{ "image/jpeg", "jpg" },	{ "image/png", "png" },
	{ "image/webp", "webp" },	{ "image/gif", "gif" },
	{ "video/mp4", "mp4" },		{ "video/3gpp", "3gp" },
	{ "video/quicktime", "mov" },	{ "audio/ogg", "ogg" },
	{ "audio/mpeg", "mp3" },	{ "audio/mp4", "m4a" },
	{ "audio/aac", "aac" },		{ "audio/amr", "amr" },
	{ "application/pdf", "pdf" },	{ "text/plain", "txt" },
	{ "application/zip", "zip" },	{ "text/vcard", "vcf" },
	{ "application/msword", "doc" },
	{ "application/vnd.openxmlformats-officedocument."
	    "wordprocessingml.document", "docx" },
};

const char *
wa_media_name_ext(const char *mimetype)
{
	size_t	n, i;

	if (mimetype == NULL)
		return "bin";
	n = strcspn(mimetype, ";");
	while (n > 0 && mimetype[n - 1] == ' ')
		n--;
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if (strlen(exts[i].mime) == n &&
		    strncasecmp(mimetype, exts[i].mime, n) == 0)
			return exts[i].ext;
	return "bin";
}

/* Length of the valid, printable UTF-8 sequence at p (1..4), or 0 for
 * an invalid one or a control character (C0, DEL, C1); *adv the bytes
 * it spans (a well-formed but refused sequence is skipped whole). */
static size_t
utf8_ok(const unsigned char *p, size_t *adv)
{
	size_t	n, i;
	unsigned int cp;

	*adv = 1;
	if (p[0] < 0x20 || p[0] == 0x7f)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = p[0] & 0x07;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	*adv = n;
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
		return 0;
	return n;
}

/* The sanitized document name into out; its length (0: none left). */
static size_t
clean_name(const char *file_name, char *out, size_t cap)
{
	const unsigned char *p;
	const char *slash;
	size_t	 o = 0, n, adv;

	slash = strrchr(file_name, '/');
	if (slash != NULL)
		file_name = slash + 1;
	slash = strrchr(file_name, '\\');
	if (slash != NULL)
		file_name = slash + 1;
	p = (const unsigned char *)file_name;
	while (*p == '.' || *p == ' ' || *p == '-')
		p++;
	while (*p != '\0') {
		n = utf8_ok(p, &adv);
		if (o + (n == 0 ? 1 : n) > cap)
			break;
		if (n == 0) {
			out[o++] = '_';
			p += adv;
			continue;
		}
		memcpy(out + o, p, n);
		o += n;
		p += n;
	}
	while (o > 0 && (out[o - 1] == ' ' || out[o - 1] == '.'))
		o--;
	return o;
}

/* Append the characters of s that keep() accepts, at most cap bytes. */
static size_t
keep_chars(const char *s, bool digits, char *out, size_t cap)
{
	size_t	o = 0;

	for (; s != NULL && *s != '\0' && o < cap; s++)
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (digits && *s >= '0' && *s <= '9'))
			out[o++] = *s;
	return o;
}

int
wa_media_name_safe(const char *file_name, const char *mimetype,
    const char *type, const char *msg_id, char *out, size_t len)
{
	char	 name[WA_MEDIA_NAME_MAX + 1], t[32], id[64];
	size_t	 n, tn, idn;
	int	 w;

	if (out == NULL || len == 0)
		return -EINVAL;
	n = file_name == NULL ? 0 :
	    clean_name(file_name, name, WA_MEDIA_NAME_MAX);
	if (n > 0) {
		if (n + 1 > len)
			return WC_ETOOBIG;
		memcpy(out, name, n);
		out[n] = '\0';
		return (int)n;
	}
	tn = keep_chars(type, false, t, sizeof(t) - 1);
	if (tn == 0)
		tn = (size_t)snprintf(t, sizeof(t), "file");
	t[tn] = '\0';
	idn = keep_chars(msg_id, true, id, sizeof(id) - 1);
	if (idn == 0)
		id[idn++] = '0';
	id[idn] = '\0';
	w = snprintf(out, len, "%s-%s.%s", t, id, wa_media_name_ext(mimetype));
	if (w < 0 || (size_t)w >= len)
		return WC_ETOOBIG;
	return w;
}

int
wa_media_name_nth(const char *path, unsigned i, char *out, size_t len)
{
	const char	*base, *dot;
	size_t		 stem;
	int		 w;

	if (path == NULL || out == NULL || path[0] == '\0')
		return -EINVAL;
	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	dot = strrchr(base, '.');
	stem = dot != NULL && dot != base ? (size_t)(dot - path) :
	    strlen(path);
	if (i == 0)
		w = snprintf(out, len, "%s", path);
	else
		w = snprintf(out, len, "%.*s-%u%s", (int)stem, path, i,
		    path + stem);
	if (w < 0 || (size_t)w >= len)
		return WC_ETOOBIG;
	return 0;
}

int
wa_media_name_free(const char *dir, const char *name, char *out, size_t len)
{
	struct stat st;
	char	 whole[4096];
	int	 i, rc, w;

	if (dir == NULL || name == NULL || out == NULL || dir[0] == '\0' ||
	    name[0] == '\0' || strchr(name, '/') != NULL)
		return -EINVAL;
	w = snprintf(whole, sizeof(whole), "%s/%s", dir, name);
	if (w < 0 || (size_t)w >= sizeof(whole))
		return WC_ETOOBIG;
	for (i = 0; i <= WA_MEDIA_NAME_TRIES; i++) {
		if ((rc = wa_media_name_nth(whole, (unsigned)i, out, len)) != 0)
			return rc;
		if (lstat(out, &st) != 0) {
			if (errno == ENOENT)
				return 0;
			return -errno;
		}
	}
	return -EEXIST;
}

int
wa_media_size_parse(const char *s, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	const char *p;
	int	 shift;

	if (s == NULL || out == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	for (p = s; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return WC_ETOOBIG;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	shift = 0;
	switch (*p) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	default: break;
	}
	if (shift != 0) {
		p++;
		if (*p == 'i')
			p++;
		mul = (uint64_t)1 << shift;
	}
	if (*p == 'B' || *p == 'b')
		p++;
	if (*p != '\0' || (p > s && p[-1] == 'i'))
		return -EINVAL;
	if (v > UINT64_MAX / mul)
		return WC_ETOOBIG;
	*out = v * mul;
	return 0;
}

static const char *const kinds[WA_MEDIA_AUTO_KINDS] = {
	"image", "video", "audio", "ptt", "document", "sticker",
};

/* One "KIND:SIZE" item of n bytes at s into a. */
static int
auto_item(const char *s, size_t n, struct wa_media_auto *a)
{
	char	 item[64], *colon, *k, *e;
	uint64_t v;
	int	 i, rc;

	if (n >= sizeof(item))
		return WC_ETOOBIG;
	memcpy(item, s, n);
	item[n] = '\0';
	for (k = item; *k == ' '; k++)
		;
	for (e = item + strlen(item); e > k && e[-1] == ' '; e--)
		;
	*e = '\0';
	colon = strchr(k, ':');
	if (colon == NULL)
		return -EINVAL;
	*colon = '\0';
	rc = wa_media_size_parse(colon + 1, &v);
	if (rc != 0)
		return rc;
	for (i = 0; i < WA_MEDIA_AUTO_KINDS; i++)
		if (strcmp(k, kinds[i]) == 0) {
			a->max[i] = v;
			return 0;
		}
	return -EINVAL;
}

int
wa_media_auto_parse(const char *s, struct wa_media_auto *a)
{
	size_t	 n;
	int	 rc;

	if (s == NULL || a == NULL)
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	while (*s == ' ')
		s++;
	if (*s == '\0' || strcmp(s, "none") == 0)
		return 0;
	for (;;) {
		n = strcspn(s, ",");
		rc = auto_item(s, n, a);
		if (rc != 0) {
			memset(a, 0, sizeof(*a));
			return rc;
		}
		if (s[n] == '\0')
			return 0;
		s += n + 1;
	}
}
