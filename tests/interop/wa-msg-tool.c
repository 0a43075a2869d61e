/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/interop/wa-msg-tool.c -- the C side of msg-check.mjs: the message
 * layer (proto/msg.c) behind a line protocol.
 *   wa-msg-tool build   prints "NAME HEX" for each Message wachat builds
 *                       from the fixed inputs below (msg-check.mjs has the
 *                       same inputs and checks Baileys' decoding)
 *   wa-msg-tool parse   reads "NAME HEX" lines and prints one JSON object
 *                       per line: what wa_msg_parse() made of the bytes
 *                       (names starting "padded" are unpadded first)
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "base/hex.h"
#include "proto/msg.h"
#include "base/xmalloc.h"

#define PEER_LID	"111222333444555@lid"
#define PEER_PN		"15550001111@s.whatsapp.net"

static void
emit(const char *name, struct buf *b)
{
	struct buf	 h = BUF_INIT;

	hex_append(&h, b->p, b->len);
	printf("%s %.*s\n", name, (int)h.len, (const char *)h.p);
	buf_release(&h);
	b->len = 0;
}

/* The media messages wachat sends (wa_msg_build_media()): a photo with a
 * caption, a voice note, a document replying to a message; key bytes
 * 0x00.., file hash 0x40.., encrypted-file hash 0x80.., waveform 0..63. */
static int
build_media(struct buf *b)
{
	static uint8_t		 key[32], sha[32], enc[32], wave[64];
	struct wa_msg_media	 md = { .url =
	    (char *)"https://mmg.example.net/d/f/Aa.enc",
	    .direct_path = (char *)"/v/t62.7118-24/Aa.enc?ccb=11-4",
	    .media_key = key, .media_key_len = 32, .file_sha256 = sha,
	    .file_sha256_len = 32, .file_enc_sha256 = enc,
	    .file_enc_sha256_len = 32, .media_key_ts = 1764480000 };
	struct wa_msg_text	 reply = { .text = "", .quoted_id =
	    "3EB0AAAAAAAAAAAAAAAAAA", .quoted_participant = PEER_PN,
	    .quoted_text = "send the minutes" };
	unsigned		 i;

	for (i = 0; i < 64; i++) {
		if (i < 32) {
			key[i] = (uint8_t)i;
			sha[i] = (uint8_t)(0x40 + i);
			enc[i] = (uint8_t)(0x80 + i);
		}
		wave[i] = (uint8_t)i;
	}
	md.type = WA_MEDIA_IMAGE;
	md.mimetype = (char *)"image/jpeg";
	md.file_length = 2048;
	md.caption = (char *)"at the harbour";
	md.width = 64;
	md.height = 48;
	if (wa_msg_build_media(&md, NULL, b) != 0)
		return 1;
	emit("media-image", b);
	md.type = WA_MEDIA_PTT;
	md.mimetype = (char *)"audio/ogg; codecs=opus";
	md.caption = NULL;
	md.width = md.height = 0;
	md.seconds = 3;
	md.waveform = wave;
	md.waveform_len = 64;
	if (wa_msg_build_media(&md, NULL, b) != 0)
		return 1;
	emit("media-ptt", b);
	md.type = WA_MEDIA_DOCUMENT;
	md.mimetype = (char *)"application/pdf";
	md.seconds = 0;
	md.waveform = NULL;
	md.waveform_len = 0;
	md.file_name = (char *)"minutes.pdf";
	if (wa_msg_build_media(&md, &reply, b) != 0)
		return 1;
	emit("media-document", b);
	return 0;
}

static int
build(void)
{
	const char		*mentions[] = { PEER_PN };
	struct wa_msg_text	 text = { .text = "hello \xc3\xa9\xf0\x9f\x98\x80" };
	struct wa_msg_text	 reply = { .text = "yes", .quoted_id =
	    "3EB0AAAAAAAAAAAAAAAAAA", .quoted_participant = PEER_PN,
	    .quoted_text = "are you there?", .mentions = mentions,
	    .n_mentions = 1 };
	struct wa_msg_key	 key = { .remote_jid = PEER_LID, .from_me = true,
	    .id = "3EB0BBBBBBBBBBBBBBBBBB" };
	struct buf		 b = BUF_INIT, inner = BUF_INIT;

	if (wa_msg_build_text(&text, &b) != 0)
		return 1;
	emit("text", &b);
	if (wa_msg_build_text(&reply, &b) != 0)
		return 1;
	emit("reply", &b);
	if (wa_msg_build_reaction(&key, "\xf0\x9f\x91\x8d", 1764480000123,
	    &b) != 0)
		return 1;
	emit("reaction", &b);
	if (wa_msg_build_reaction(&key, "", 1764480000124, &b) != 0)
		return 1;
	emit("unreaction", &b);
	if (wa_msg_build_revoke(&key, &b) != 0)
		return 1;
	emit("revoke", &b);
	if (wa_msg_build_edit(&key, "fixed text", 1764480000125, &b) != 0)
		return 1;
	emit("edit", &b);
	if (wa_msg_build_text(&text, &inner) != 0 ||
	    wa_msg_wrap_dsm(inner.p, inner.len, PEER_LID, &b) != 0)
		return 1;
	emit("dsm", &b);
	/* The padded plaintext of "text", with the most and least padding. */
	inner.len = 0;
	if (wa_msg_build_text(&text, &inner) != 0)
		return 1;
	wa_msg_pad(inner.p, inner.len, 0x0F, &b);
	emit("padded-16", &b);
	wa_msg_pad(inner.p, inner.len, 0xF0, &b);
	emit("padded-1", &b);
	if (build_media(&b) != 0)
		return 1;
	buf_release(&inner);
	buf_release(&b);
	return 0;
}

static void
json_str(const char *key, const char *s)
{
	const unsigned char	*p;

	printf(",\"%s\":", key);
	if (s == NULL) {
		printf("null");
		return;
	}
	putchar('"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static const char *
kind_name(enum wa_msg_kind k)
{
	switch (k) {
	case WA_MSG_EMPTY:
		return "EMPTY";
	case WA_MSG_TEXT:
		return "TEXT";
	case WA_MSG_REPLY:
		return "REPLY";
	case WA_MSG_REACTION:
		return "REACTION";
	case WA_MSG_EDIT:
		return "EDIT";
	case WA_MSG_REVOKE:
		return "REVOKE";
	case WA_MSG_PROTOCOL:
		return "PROTOCOL";
	case WA_MSG_SKDM:
		return "SKDM";
	case WA_MSG_UNSUPPORTED:
		return "UNSUPPORTED";
	case WA_MSG_MEDIA:
		return "MEDIA";
	}
	return "?";
}

/* The media of a parsed Message, as media_* members. */
static void
media_json(const struct wa_msg_media *md)
{
	json_str("media_type", wa_msg_media_name(md->type));
	json_str("media_mimetype", md->mimetype);
	json_str("media_caption", md->caption);
	json_str("media_file_name", md->file_name);
	json_str("media_direct_path", md->direct_path);
	printf(",\"media_size\":%llu,\"media_width\":%u,\"media_height\":%u,"
	    "\"media_seconds\":%u,\"media_pages\":%u,\"media_animated\":%s,"
	    "\"media_key_len\":%zu,\"media_sha_len\":%zu,"
	    "\"media_enc_sha_len\":%zu,\"media_thumb_len\":%zu,"
	    "\"media_waveform_len\":%zu,\"media_key_ts\":%lld",
	    (unsigned long long)md->file_length, md->width, md->height,
	    md->seconds, md->pages, md->animated ? "true" : "false",
	    md->media_key_len, md->file_sha256_len, md->file_enc_sha256_len,
	    md->thumb_len, md->waveform_len, (long long)md->media_key_ts);
}

static int
parse(void)
{
	char			 line[1 << 16];
	struct wa_msg_content	 c;
	struct buf		 b;
	char			*sp;
	size_t			 i, n;
	int			 rc, hi, lo;

	while (fgets(line, sizeof(line), stdin) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if ((sp = strchr(line, ' ')) == NULL)
			continue;
		*sp++ = '\0';
		n = strlen(sp) / 2;
		b.p = xmalloc(n + 1);
		b.len = b.cap = 0;
		for (i = 0; i < n; i++) {
			hi = hex_digit(sp[2 * i]);
			lo = hex_digit(sp[2 * i + 1]);
			if (hi < 0 || lo < 0)
				break;
			b.p[b.len++] = (uint8_t)(hi << 4 | lo);
		}
		rc = 0;
		if (strncmp(line, "padded", 6) == 0)
			rc = wa_msg_unpad(b.p, b.len, &b.len);
		if (rc == 0)
			rc = wa_msg_parse(b.p, b.len, &c);
		printf("{\"name\":\"%s\",\"rc\":%d", line, rc);
		if (rc == 0) {
			json_str("kind", kind_name(c.kind));
			json_str("text", c.text);
			json_str("quoted_id", c.quoted_id);
			json_str("quoted_participant", c.quoted_participant);
			json_str("quoted_text", c.quoted_text);
			json_str("target_remote_jid", c.target.remote_jid);
			json_str("target_id", c.target.id);
			json_str("target_participant", c.target.participant);
			printf(",\"target_from_me\":%s",
			    c.target.from_me ? "true" : "false");
			json_str("emoji", c.emoji);
			printf(",\"ts_ms\":%lld,\"protocol_type\":%d",
			    (long long)c.ts_ms, (int)c.protocol_type);
			json_str("dsm_destination", c.dsm_destination);
			json_str("unsupported_name", c.unsupported_name);
			printf(",\"skdm_len\":%zu,\"secret_len\":%zu",
			    c.skdm_len, c.message_secret_len);
			json_str("skdm_group", c.skdm_group);
			if (c.media != NULL)
				media_json(c.media);
			wa_msg_content_release(&c);
		}
		printf("}\n");
		free(b.p);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	if (wa_crypto_init() != 0)
		return 1;
	if (argc == 2 && strcmp(argv[1], "build") == 0)
		return build();
	if (argc == 2 && strcmp(argv[1], "parse") == 0)
		return parse();
	fprintf(stderr, "usage: wa-msg-tool build|parse\n");
	return 2;
}
