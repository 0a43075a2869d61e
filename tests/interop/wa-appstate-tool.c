/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/interop/wa-appstate-tool.c -- the C side of tests/interop/
 * appstate-check.mjs: wachat's app-state sync (proto/appstate.h) against
 * Baileys' chat-utils.  Hex in arguments, binary on stdin, one line out:
 *
 *   lthash [+MAC|-MAC]...     the LTHash of a zero hash with each value
 *                             MAC added (+) or subtracted (-) in order
 *   encode KEY KEYID COLL BASEVER BASEHASH MAP
 *                             stdin: one action a line (below); out:
 *                             "PATCH VERSION HASH CHANGES"
 *   apply KEY KEYID COLL VERSION BASEVER BASEHASH MAP
 *                             stdin: a SyncdPatch; out: one JSON object
 *   snapshot KEY KEYID COLL   stdin: a SyncdSnapshot; out: as apply
 *
 * KEY is the key's keyData, KEYID its ID (the only key the tool knows).
 * MAP is "-" or IM:VM,... (the stored index MAC -> value MAC map);
 * CHANGES is written the same way, a deleted index as IM:-.  An action
 * line is tab-separated: op (set/remove), kind (the names of kinds[]),
 * then chat, msg_id, participant, full_name, first_name, lid, pn,
 * push_name as hex or "-" for none, then from_me, flag, delete_media,
 * delete_starred (0/1), mute_end_ms, range_last_s, msg_ts_s (decimal).
 * Each record's IV is 16 bytes of its line number.  Strings in the JSON
 * are hex.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/hex.h"
#include "proto/appstate.h"
#include "proto/crypto.h"

static const char *const kinds[WA_AS_ACT_NKIND] = {
	[WA_AS_ACT_UNKNOWN] = "unknown", [WA_AS_ACT_CONTACT] = "contact",
	[WA_AS_ACT_LID_CONTACT] = "lidContact",
	[WA_AS_ACT_PUSH_NAME] = "pushName", [WA_AS_ACT_MUTE] = "mute",
	[WA_AS_ACT_PIN] = "pin", [WA_AS_ACT_ARCHIVE] = "archive",
	[WA_AS_ACT_MARK_READ] = "markRead", [WA_AS_ACT_STAR] = "star",
	[WA_AS_ACT_DELETE_MSG_FOR_ME] = "deleteForMe",
	[WA_AS_ACT_CLEAR_CHAT] = "clearChat",
	[WA_AS_ACT_DELETE_CHAT] = "deleteChat", [WA_AS_ACT_LOCK] = "lock",
	[WA_AS_ACT_UNARCHIVE_SETTING] = "unarchiveSetting",
	[WA_AS_ACT_PN_FOR_LID] = "pnForLid",
	[WA_AS_ACT_USER_STATUS_MUTE] = "userStatusMute",
	[WA_AS_ACT_IGNORED] = "ignored",
};

static void
die(const char *what)
{
	fprintf(stderr, "wa-appstate-tool: %s\n", what);
	exit(2);
}

static void
read_all(struct buf *b)
{
	uint8_t	 chunk[65536];
	size_t	 n;

	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		buf_append(b, chunk, n);
}

/* hex s into a malloc'd buffer; *len its length. */
static uint8_t *
unhex(const char *s, size_t *len)
{
	size_t	 n = strlen(s), i;
	uint8_t	*p;

	if (n % 2 != 0)
		die("odd hex");
	p = malloc(n / 2 + 1);
	if (p == NULL)
		die("out of memory");
	for (i = 0; i < n / 2; i++) {
		int	 hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			die("bad hex");
		p[i] = (uint8_t)(hi << 4 | lo);
	}
	*len = n / 2;
	return p;
}

static void
unhex_to(const char *s, uint8_t *out, size_t len)
{
	size_t	 n;
	uint8_t	*p = unhex(s, &n);

	if (n != len)
		die("hex of the wrong length");
	memcpy(out, p, len);
	free(p);
}

static void
put_hex(const uint8_t *p, size_t len)
{
	struct buf	 b = BUF_INIT;

	hex_append(&b, p, len);
	fwrite(b.p, 1, b.len, stdout);
	buf_release(&b);
}

static void
put_hex_str(const char *s)
{
	if (s == NULL) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	put_hex((const uint8_t *)s, strlen(s));
	putchar('"');
}

/* ---- the caller's key and map ---- */

struct world {
	uint8_t			*key_id;
	size_t			 key_id_len;
	struct wa_as_keys	 keys;
	uint8_t			(*map)[2][32];
	size_t			 n;
};

static int
key_fn(void *arg, const uint8_t *id, size_t len, struct wa_as_keys *out)
{
	struct world	*w = arg;

	if (len != w->key_id_len || memcmp(id, w->key_id, len) != 0)
		return 0;
	*out = w->keys;
	return 1;
}

static int
mac_fn(void *arg, enum wa_as_coll c, const uint8_t im[32], uint8_t vm[32])
{
	struct world	*w = arg;
	size_t		 i;

	(void)c;
	for (i = 0; i < w->n; i++)
		if (memcmp(w->map[i][0], im, 32) == 0) {
			memcpy(vm, w->map[i][1], 32);
			return 1;
		}
	return 0;
}

static void
world_init(struct world *w, const char *key, const char *key_id,
    const char *map)
{
	uint8_t		*kd;
	size_t		 kd_len;
	const char	*p;

	memset(w, 0, sizeof(*w));
	kd = unhex(key, &kd_len);
	if (wa_as_keys_expand(kd, kd_len, &w->keys) != 0)
		die("bad key");
	free(kd);
	w->key_id = unhex(key_id, &w->key_id_len);
	if (map == NULL || strcmp(map, "-") == 0)
		return;
	w->map = malloc((strlen(map) / 129 + 1) * sizeof(*w->map));
	for (p = map; *p != '\0';) {
		char	 im[65], vm[65];

		if (sscanf(p, "%64[0-9a-f]:%64[0-9a-f]", im, vm) != 2)
			die("bad map");
		unhex_to(im, w->map[w->n][0], 32);
		unhex_to(vm, w->map[w->n][1], 32);
		w->n++;
		p += 129;
		if (*p == ',')
			p++;
	}
}

static void
world_free(struct world *w)
{
	free(w->key_id);
	free(w->map);
	wa_crypto_wipe(&w->keys, sizeof(w->keys));
}

static enum wa_as_coll
coll_of(const char *s)
{
	int	 c = wa_as_coll_find(s);

	if (c < 0)
		die("unknown collection");
	return (enum wa_as_coll)c;
}

static void
put_changes(const struct wa_as_change *ch, size_t n)
{
	size_t	 i;

	if (n == 0)
		fputs("-", stdout);
	for (i = 0; i < n; i++) {
		if (i > 0)
			putchar(',');
		put_hex(ch[i].index_mac, 32);
		putchar(':');
		if (ch[i].set)
			put_hex(ch[i].value_mac, 32);
		else
			putchar('-');
	}
}

/* ---- lthash ---- */

static int
cmd_lthash(int argc, char **argv)
{
	uint8_t	 h[WA_AS_HASH_LEN] = { 0 }, vm[32];
	int	 i;

	for (i = 0; i < argc; i++) {
		if (argv[i][0] != '+' && argv[i][0] != '-')
			die("lthash: +MAC or -MAC");
		unhex_to(argv[i] + 1, vm, 32);
		if (argv[i][0] == '+')
			wa_lthash_add(h, vm);
		else
			wa_lthash_sub(h, vm);
	}
	put_hex(h, sizeof(h));
	putchar('\n');
	return 0;
}

/* ---- encode ---- */

static char *
field_str(char *f)
{
	size_t	 n;
	uint8_t	*p;

	if (strcmp(f, "-") == 0)
		return NULL;
	p = unhex(f, &n);
	p[n] = '\0';
	return (char *)p;
}

static void
parse_action(char *line, struct wa_as_send *s, struct wa_as_action *a)
{
	char	*f[20];
	int	 n = 0, k;

	for (char *t = strtok(line, "\t\n"); t != NULL && n < 20;
	    t = strtok(NULL, "\t\n"))
		f[n++] = t;
	if (n != 17)
		die("an action line has 17 fields");
	memset(a, 0, sizeof(*a));
	s->op = strcmp(f[0], "remove") == 0 ? WA_AS_REMOVE : WA_AS_SET;
	for (k = 0; k < WA_AS_ACT_NKIND; k++)
		if (strcmp(f[1], kinds[k]) == 0)
			break;
	if (k == WA_AS_ACT_NKIND)
		die("unknown kind");
	a->kind = (enum wa_as_action_kind)k;
	a->chat = field_str(f[2]);
	a->msg_id = field_str(f[3]);
	a->participant = field_str(f[4]);
	a->full_name = field_str(f[5]);
	a->first_name = field_str(f[6]);
	a->lid = field_str(f[7]);
	a->pn = field_str(f[8]);
	a->push_name = field_str(f[9]);
	a->from_me = strcmp(f[10], "1") == 0;
	a->flag = strcmp(f[11], "1") == 0;
	a->delete_media = strcmp(f[12], "1") == 0;
	a->delete_starred = strcmp(f[13], "1") == 0;
	a->mute_end_ms = strtoll(f[14], NULL, 10);
	a->range_last_s = strtoll(f[15], NULL, 10);
	a->msg_ts_s = strtoll(f[16], NULL, 10);
	s->action = a;
}

static int
cmd_encode(char **argv, int64_t now_ms)
{
	struct wa_as_send	 s[64];
	struct wa_as_action	 a[64];
	struct wa_as_state	 base, ns;
	struct wa_as_change	*ch;
	struct world		 w;
	struct buf		 out = BUF_INIT;
	struct arena		 ar;
	char			 line[8192];
	size_t			 n = 0, n_ch;
	int			 rc;

	world_init(&w, argv[0], argv[1], argv[5]);
	base.version = strtoull(argv[3], NULL, 10);
	unhex_to(argv[4], base.hash, sizeof(base.hash));
	while (fgets(line, sizeof(line), stdin) != NULL && n < 64) {
		parse_action(line, &s[n], &a[n]);
		memset(s[n].iv, (int)n + 1, sizeof(s[n].iv));
		n++;
	}
	arena_init(&ar, 1 << 16);
	rc = wa_as_patch_encode(&ar, &w.keys, w.key_id, w.key_id_len,
	    coll_of(argv[2]), &base, s, n, now_ms, mac_fn, &w, &out, &ns, &ch,
	    &n_ch);
	if (rc != 0)
		printf("error %d %s\n", rc, wc_strerror(rc));
	else {
		put_hex(out.p, out.len);
		printf(" %" PRIu64 " ", ns.version);
		put_hex(ns.hash, sizeof(ns.hash));
		putchar(' ');
		put_changes(ch, n_ch);
		putchar('\n');
	}
	while (n-- > 0) {
		const char *f[] = { a[n].chat, a[n].msg_id, a[n].participant,
		    a[n].full_name, a[n].first_name, a[n].lid, a[n].pn,
		    a[n].push_name };
		size_t	 i;

		for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			free((char *)f[i]);	/* this tool's strdup()s */
	}
	buf_release(&out);
	arena_release(&ar);
	world_free(&w);
	return rc != 0;
}

/* ---- apply ---- */

static void
put_action(const struct wa_as_action *a)
{
	printf("{\"kind\":\"%s\",\"version\":%d,\"ts\":%" PRId64 ",\"chat\":",
	    kinds[a->kind], a->version, a->ts_ms);
	put_hex_str(a->chat);
	fputs(",\"msgId\":", stdout);
	put_hex_str(a->msg_id);
	fputs(",\"participant\":", stdout);
	put_hex_str(a->participant);
	fputs(",\"fullName\":", stdout);
	put_hex_str(a->full_name);
	fputs(",\"firstName\":", stdout);
	put_hex_str(a->first_name);
	fputs(",\"lid\":", stdout);
	put_hex_str(a->lid);
	fputs(",\"pn\":", stdout);
	put_hex_str(a->pn);
	fputs(",\"pushName\":", stdout);
	put_hex_str(a->push_name);
	printf(",\"fromMe\":%s,\"flag\":%s,\"deleteMedia\":%s,"
	    "\"deleteStarred\":%s,\"muteEnd\":%" PRId64 ",\"rangeLast\":%"
	    PRId64 ",\"msgTs\":%" PRId64 "}", a->from_me ? "true" : "false",
	    a->flag ? "true" : "false", a->delete_media ? "true" : "false",
	    a->delete_starred ? "true" : "false", a->mute_end_ms,
	    a->range_last_s, a->msg_ts_s);
}

static void
put_result(int rc, const struct wa_as_state *st,
    const struct wa_as_apply_out *out)
{
	size_t	 i;

	if (rc != 0) {
		printf("{\"ok\":false,\"err\":%d,\"why\":\"%s\"}\n", rc,
		    wc_strerror(rc));
		return;
	}
	printf("{\"ok\":true,\"version\":%" PRIu64 ",\"hash\":\"", st->version);
	put_hex(st->hash, sizeof(st->hash));
	fputs("\",\"changes\":\"", stdout);
	put_changes(out->changes, out->n_changes);
	fputs("\",\"mutations\":[", stdout);
	for (i = 0; i < out->n_mutations; i++) {
		const struct wa_as_mutation *m = &out->mutations[i];

		printf("%s{\"op\":%d,\"err\":%d,\"index\":", i ? "," : "",
		    m->op, m->err);
		put_hex_str(m->index_json);
		fputs(",\"action\":", stdout);
		put_action(&m->action);
		putchar('}');
	}
	fputs("]}\n", stdout);
}

static int
cmd_apply(char **argv, bool snapshot)
{
	struct wa_as_apply_in	 in = { 0 };
	struct wa_as_apply_out	 out;
	struct wa_as_state	 st = { 0 };
	struct wa_as_patch	 p;
	struct wa_as_snapshot	 s;
	struct world		 w;
	struct buf		 b = BUF_INIT;
	struct arena		 ar;
	int			 rc;

	world_init(&w, argv[0], argv[1], snapshot ? "-" : argv[6]);
	in.coll = coll_of(argv[2]);
	read_all(&b);
	arena_init(&ar, 1 << 16);
	if (snapshot) {
		if ((rc = wa_as_snapshot_parse(&ar, b.p, b.len, &s)) != 0)
			goto out;
		in.snapshot = true;
		in.records = s.records;
		in.n_records = s.n_records;
		in.key_id = s.key_id;
		in.key_id_len = s.key_id_len;
		in.version = s.version;
		in.snapshot_mac = s.mac;
	} else {
		if ((rc = wa_as_patch_parse(&ar, b.p, b.len, &p)) != 0)
			goto out;
		st.version = strtoull(argv[4], NULL, 10);
		unhex_to(argv[5], st.hash, sizeof(st.hash));
		in.records = p.records;
		in.n_records = p.n_records;
		in.key_id = p.key_id;
		in.key_id_len = p.key_id_len;
		in.version = p.has_version ? p.version :
		    strtoull(argv[3], NULL, 10);
		in.snapshot_mac = p.snapshot_mac;
		in.patch_mac = p.patch_mac;
		if (!p.has_macs) {
			rc = WC_EPROTO;
			goto out;
		}
	}
	in.key_fn = key_fn;
	in.key_arg = &w;
	in.mac_fn = mac_fn;
	in.mac_arg = &w;
	rc = wa_as_apply(&ar, &in, &st, &out);
out:
	put_result(rc, &st, &out);
	buf_release(&b);
	arena_release(&ar);
	world_free(&w);
	return 0;
}

int
main(int argc, char **argv)
{
	if (wa_crypto_init() != 0)
		die("wa_crypto_init failed");
	if (argc >= 2 && strcmp(argv[1], "lthash") == 0)
		return cmd_lthash(argc - 2, argv + 2);
	if (argc == 8 && strcmp(argv[1], "encode") == 0)
		return cmd_encode(argv + 2, 1700000000123);
	if (argc == 9 && strcmp(argv[1], "apply") == 0)
		return cmd_apply(argv + 2, false);
	if (argc == 5 && strcmp(argv[1], "snapshot") == 0)
		return cmd_apply(argv + 2, true);
	die("usage: lthash|encode|apply|snapshot ...");
	return 2;
}
