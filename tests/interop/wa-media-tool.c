/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/interop/wa-media-tool.c -- the C side of tests/interop/
 * media-check.mjs: wachat's media scheme (proto/media.c) and history
 * chunk (proto/history.c) against Baileys'.  Binary input on stdin,
 * hex on stdout, one line:
 *
 *   encrypt TYPE KEY         plaintext -> "BLOB ENC_SHA256 SHA256"
 *   decrypt TYPE KEY ENC SHA blob -> "ok PLAINTEXT" or "error CODE WHY"
 *   hist-read KEY ENC SHA    history blob -> decrypt, inflate, parse:
 *                            one JSON object of the chunk (strings hex)
 *   hist-make KEY            a fixed chunk (see make_hist) built,
 *                            deflated, encrypted: "BLOB ENC_SHA256 SHA256"
 *
 * TYPE is Baileys' media type name ("image", "md-msg-hist", ...), mapped
 * here to proto/media.h's own WA_MEDIA_INFO_* constants, so the check
 * covers them too.  KEY, ENC and SHA are hex; ENC and SHA may be "-".
 */
#include "base/compat.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "base/hex.h"
#include "proto/history.h"
#include "proto/media.h"
#include "proto/msg.h"

static const struct {
	const char	*type;
	const char	*info;
} infos[] = {
	{ "image", WA_MEDIA_INFO_IMAGE },
	{ "sticker", WA_MEDIA_INFO_IMAGE },
	{ "video", WA_MEDIA_INFO_VIDEO },
	{ "gif", WA_MEDIA_INFO_VIDEO },
	{ "ptv", WA_MEDIA_INFO_VIDEO },
	{ "audio", WA_MEDIA_INFO_AUDIO },
	{ "ptt", WA_MEDIA_INFO_AUDIO },
	{ "document", WA_MEDIA_INFO_DOCUMENT },
	{ "md-msg-hist", WA_MEDIA_INFO_HISTORY },
	{ "md-app-state", WA_MEDIA_INFO_APP_STATE },
	{ "thumbnail-link", WA_MEDIA_INFO_LINK_THUMB },
	{ "thumbnail-image", WA_MEDIA_INFO_IMAGE_THUMB },
	{ "thumbnail-video", WA_MEDIA_INFO_VIDEO_THUMB },
	{ "thumbnail-document", WA_MEDIA_INFO_DOCUMENT_THUMB },
	{ "sticker-pack", WA_MEDIA_INFO_STICKER_PACK },
};

static const char *
info_of(const char *type)
{
	size_t	 i;

	for (i = 0; i < sizeof(infos) / sizeof(infos[0]); i++)
		if (strcmp(infos[i].type, type) == 0)
			return infos[i].info;
	fprintf(stderr, "unknown media type %s\n", type);
	exit(2);
}

static void
read_all(struct buf *b)
{
	size_t	 n;

	do {
		buf_reserve(b, 65536);
		n = fread(b->p + b->len, 1, 65536, stdin);
		b->len += n;
	} while (n > 0);
}

/* Hex s into exactly len bytes; "-" gives NULL. */
static uint8_t *
unhex(const char *s, uint8_t *out, size_t len)
{
	size_t	 i;

	if (strcmp(s, "-") == 0)
		return NULL;
	if (strlen(s) != 2 * len)
		exit(2);
	for (i = 0; i < len; i++) {
		int	 h = hex_digit(s[2 * i]), l = hex_digit(s[2 * i + 1]);

		if (h < 0 || l < 0)
			exit(2);
		out[i] = (uint8_t)(h << 4 | l);
	}
	return out;
}

static void
put_hex(const void *p, size_t len)
{
	struct buf	 h = BUF_INIT;

	hex_append(&h, p, len);
	fwrite(h.p != NULL ? h.p : (uint8_t *)"", 1, h.len, stdout);
	buf_release(&h);
}

static void
put_str(const char *k, const char *s)
{
	printf("\"%s\":", k);
	if (s == NULL) {
		printf("null");
		return;
	}
	putchar('"');
	put_hex(s, strlen(s));
	putchar('"');
}

/* The chunk media-check.mjs expects from hist-make. */
static const char *const texts[] = {
	"hello from wachat",
	"مرحبا 👋 नमस्ते",
	"你好 こんにちは 👨‍👩‍👧",
};

static int
make_hist(struct buf *out)
{
	struct buf		 e2e[3] = { BUF_INIT, BUF_INIT, BUF_INIT };
	struct wa_hist_msg	 m[3];
	struct wa_hist_participant p[2] = {
		{ "15550002222@s.whatsapp.net", 2 },
		{ "100000000003333@lid", 0 } };
	struct wa_hist_conv	 c[2];
	struct wa_hist_pushname	 pn = { "15550001111@s.whatsapp.net", "Zoë 🌸" };
	struct wa_hist_lid_map	 lm = { "15550001111@s.whatsapp.net",
	    "100000000001111@lid" };
	struct wa_hist		 h;
	size_t			 i;
	int			 rc;

	memset(m, 0, sizeof(m));
	memset(c, 0, sizeof(c));
	memset(&h, 0, sizeof(h));
	for (i = 0; i < 3; i++) {
		struct wa_msg_text	 t = { .text = texts[i] };

		if ((rc = wa_msg_build_text(&t, &e2e[i])) != 0)
			return rc;
		m[i].message = e2e[i].p;
		m[i].message_len = e2e[i].len;
		m[i].status = -1;
		m[i].ts_s = 1700000000 + i;
	}
	m[0].remote_jid = "15550001111@s.whatsapp.net";
	m[0].id = "3EB0A1";
	m[0].from_me = true;
	m[0].status = 4;
	m[1].remote_jid = "15550001111@s.whatsapp.net";
	m[1].id = "3EB0A2";
	m[1].push_name = "Zoë 🌸";
	m[2].remote_jid = "120363000000000009@g.us";
	m[2].id = "3EB0B1";
	m[2].key_participant = "15550002222@s.whatsapp.net";
	m[2].participant = "15550002222@s.whatsapp.net";
	c[0].id = "15550001111@s.whatsapp.net";
	c[0].lid_jid = "100000000001111@lid";
	c[0].unread_count = 1;
	c[0].conversation_ts_s = 1700000001;
	c[0].msgs = m;
	c[0].n_msgs = 2;
	c[1].id = "120363000000000009@g.us";
	c[1].name = "家族 👨‍👩‍👧";
	c[1].archived = true;
	c[1].pinned = 2;
	c[1].mute_end_s = 1800000000;
	c[1].msgs = m + 2;
	c[1].n_msgs = 1;
	c[1].participants = p;
	c[1].n_participants = 2;
	h.sync_type = WA_HIST_RECENT;
	h.chunk_order = 3;
	h.progress = 55;
	h.convs = c;
	h.n_convs = 2;
	h.pushnames = &pn;
	h.n_pushnames = 1;
	h.lid_maps = &lm;
	h.n_lid_maps = 1;
	rc = wa_hist_build(&h, out);
	for (i = 0; i < 3; i++)
		buf_release(&e2e[i]);
	return rc;
}

static void
print_hist(const struct wa_hist *h)
{
	size_t	 i, j;

	printf("{\"syncType\":%d,\"chunkOrder\":%u,\"progress\":%u,"
	    "\"conversations\":[", h->sync_type, h->chunk_order, h->progress);
	for (i = 0; i < h->n_convs; i++) {
		const struct wa_hist_conv	*c = &h->convs[i];

		printf("%s{", i > 0 ? "," : "");
		put_str("id", c->id);
		putchar(',');
		put_str("name", c->name);
		putchar(',');
		put_str("lidJid", c->lid_jid);
		printf(",\"unreadCount\":%u,\"archived\":%s,\"pinned\":%u,"
		    "\"muteEndTime\":%llu,\"conversationTimestamp\":%llu,"
		    "\"participants\":[", c->unread_count,
		    c->archived ? "true" : "false", c->pinned,
		    (unsigned long long)c->mute_end_s,
		    (unsigned long long)c->conversation_ts_s);
		for (j = 0; j < c->n_participants; j++) {
			printf("%s{", j > 0 ? "," : "");
			put_str("jid", c->participants[j].jid);
			printf(",\"rank\":%d}", c->participants[j].rank);
		}
		printf("],\"messages\":[");
		for (j = 0; j < c->n_msgs; j++) {
			const struct wa_hist_msg	*m = &c->msgs[j];
			struct wa_msg_content		 mc;

			printf("%s{", j > 0 ? "," : "");
			put_str("remoteJid", m->remote_jid);
			putchar(',');
			put_str("id", m->id);
			putchar(',');
			put_str("participant", m->key_participant);
			putchar(',');
			put_str("pushName", m->push_name);
			printf(",\"fromMe\":%s,\"ts\":%llu,\"status\":%d,",
			    m->from_me ? "true" : "false",
			    (unsigned long long)m->ts_s, m->status);
			if (m->message != NULL &&
			    wa_msg_parse(m->message, m->message_len, &mc) == 0) {
				put_str("text", mc.text);
				wa_msg_content_release(&mc);
			} else
				put_str("text", NULL);
			putchar('}');
		}
		printf("]}");
	}
	printf("],\"pushnames\":[");
	for (i = 0; i < h->n_pushnames; i++) {
		printf("%s{", i > 0 ? "," : "");
		put_str("id", h->pushnames[i].jid);
		putchar(',');
		put_str("pushname", h->pushnames[i].name);
		putchar('}');
	}
	printf("],\"lidMappings\":[");
	for (i = 0; i < h->n_lid_maps; i++) {
		printf("%s{", i > 0 ? "," : "");
		put_str("pnJid", h->lid_maps[i].pn_jid);
		putchar(',');
		put_str("lidJid", h->lid_maps[i].lid_jid);
		putchar('}');
	}
	printf("]}\n");
}

int
main(int argc, char **argv)
{
	struct buf	 in = BUF_INIT, out = BUF_INIT, z = BUF_INIT;
	uint8_t		 key[32], enc[32], sha[32];
	const uint8_t	*encp, *shap;
	const char	*why = NULL;
	int		 rc;

	if (argc < 3 || wa_crypto_init() != 0)
		return 2;
	if (strcmp(argv[1], "encrypt") == 0 && argc == 4) {
		unhex(argv[3], key, 32);
		read_all(&in);
		if ((rc = wa_media_encrypt(key, info_of(argv[2]), in.p, in.len,
		    &out, enc, sha)) != 0)
			return 1;
	} else if (strcmp(argv[1], "decrypt") == 0 && argc == 6) {
		unhex(argv[3], key, 32);
		encp = unhex(argv[4], enc, 32);
		shap = unhex(argv[5], sha, 32);
		read_all(&in);
		rc = wa_media_decrypt(key, info_of(argv[2]), in.p, in.len,
		    encp, shap, 1u << 26, &out, &why);
		if (rc != 0)
			printf("error %d %s\n", rc, why);
		else {
			printf("ok ");
			put_hex(out.p, out.len);
			putchar('\n');
		}
		goto done;
	} else if (strcmp(argv[1], "hist-read") == 0 && argc == 5) {
		struct arena	 a;
		struct wa_hist	*h;

		unhex(argv[2], key, 32);
		encp = unhex(argv[3], enc, 32);
		shap = unhex(argv[4], sha, 32);
		read_all(&in);
		arena_init(&a, 0);
		if ((rc = wa_media_decrypt(key, WA_MEDIA_INFO_HISTORY, in.p,
		    in.len, encp, shap, WA_HIST_MAX_INFLATED, &z, &why)) != 0 ||
		    (rc = wa_hist_inflate(z.p, z.len, 0, &a, &out, &why)) != 0 ||
		    (rc = wa_hist_parse(out.p, out.len, &a, &h, &why)) != 0)
			printf("error %d %s\n", rc, why);
		else
			print_hist(h);
		arena_release(&a);
		goto done;
	} else if (strcmp(argv[1], "hist-make") == 0 && argc == 3) {
		unhex(argv[2], key, 32);
		if (make_hist(&in) != 0 ||
		    wa_hist_deflate(in.p, in.len, -1, &z) != 0 ||
		    wa_media_encrypt(key, WA_MEDIA_INFO_HISTORY, z.p, z.len,
		    &out, enc, sha) != 0)
			return 1;
	} else
		return 2;
	put_hex(out.p, out.len);
	putchar(' ');
	put_hex(enc, 32);
	putchar(' ');
	put_hex(sha, 32);
	putchar('\n');
done:
	buf_release(&in);
	buf_release(&out);
	buf_release(&z);
	return 0;
}
