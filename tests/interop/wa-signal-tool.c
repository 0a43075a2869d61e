/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/interop/wa-signal-tool.c -- the C side of signal-check.mjs: one
 * wachat device (proto/signal.c over store/ in a fresh temporary
 * directory, bound by src/app-store.c as the client binds it) behind a
 * line protocol on stdin and stdout.
 *
 * At start it registers a device (identity, registration id, signed
 * prekey 1, one-time prekey 1) and prints its bundle (protocol.md 8.1),
 * keys as 32-byte hex:
 *   bundle REG IDENTITY SPK_ID SPK_PUB SPK_SIG PREKEY_ID PREKEY_PUB
 * Then, one command per line, one answer line each ("error CODE TEXT" on
 * failure):
 *   process JID REG IDENTITY SPK_ID SPK_PUB SPK_SIG PREKEY_ID PREKEY_PUB
 *           wa_signal_process_bundle() for JID ("user[:dev]@server"); keys
 *           as 32 or 33 (05 || key) bytes of hex -> "ok"
 *   encrypt JID HEX      wa_signal_encrypt() -> "pkmsg HEX" or "msg HEX"
 *   decrypt JID pkmsg|msg HEX   wa_signal_decrypt() -> "plain HEX"
 *   quit                 (or end of input) removes the directory
 */
#include "base/compat.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "src/app-store.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "base/hex.h"
#include "store/store.h"
#include "proto/wa-signal.h"

#define LINE_MAX_LEN	(1u << 20)

static struct store	*st;
static char		 dir[64];

static int64_t
now_ms(void *arg)
{
	struct timespec	 ts;

	(void)arg;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
put_hex(const char *pre, const uint8_t *p, size_t len)
{
	struct buf	 h = BUF_INIT;

	hex_append(&h, p, len);
	printf("%s%.*s", pre, (int)h.len, h.p != NULL ? (const char *)h.p : "");
	buf_release(&h);
}

/* Decode hex s into out (cap bytes); returns the length or -1. */
static long
from_hex(const char *s, uint8_t *out, size_t cap)
{
	size_t	 n = strlen(s), i;
	unsigned v;

	if (n % 2 != 0 || n / 2 > cap)
		return -1;
	for (i = 0; i < n / 2; i++) {
		if (sscanf(s + 2 * i, "%2x", &v) != 1 ||
		    strchr("0123456789abcdefABCDEF", s[2 * i]) == NULL ||
		    strchr("0123456789abcdefABCDEF", s[2 * i + 1]) == NULL)
			return -1;
		out[i] = (uint8_t)v;
	}
	return (long)(n / 2);
}

/* A 32-byte key, or 05 || key. */
static int
key_hex(const char *s, uint8_t key[WA_SIGNAL_KEY_LEN])
{
	uint8_t	 k[WA_SIGNAL_KEY_LEN + 1];
	long	 n = s != NULL ? from_hex(s, k, sizeof(k)) : -1;

	if (n == WA_SIGNAL_KEY_LEN)
		memcpy(key, k, WA_SIGNAL_KEY_LEN);
	else if (n == WA_SIGNAL_KEY_LEN + 1 && k[0] == 0x05)
		memcpy(key, k + 1, WA_SIGNAL_KEY_LEN);
	else
		return -EINVAL;
	return 0;
}

static int
num(const char *s, uint32_t *out)
{
	char		*end;
	unsigned long	 v;

	if (s == NULL)
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static int
reg(void)
{
	struct store_device	 d;
	struct store_prekey	 k;
	uint8_t			 msg[33], rnd[WA_CRYPTO_SIG_RANDOM_LEN];
	int			 rc;

	memset(&d, 0, sizeof(d));
	randombytes_buf(d.noise_priv, 32);
	wa_crypto_x25519_base(d.noise_priv, d.noise_pub);
	randombytes_buf(d.identity_priv, 32);
	wa_crypto_x25519_base(d.identity_priv, d.identity_pub);
	d.registration_id = 1 + randombytes_uniform(16380);
	d.spk_id = 1;
	randombytes_buf(d.spk_priv, 32);
	wa_crypto_x25519_base(d.spk_priv, d.spk_pub);
	msg[0] = 0x05;
	memcpy(msg + 1, d.spk_pub, 32);
	randombytes_buf(rnd, sizeof(rnd));
	if ((rc = wa_crypto_xeddsa_sign(d.identity_priv, msg, sizeof(msg),
	    rnd, d.spk_sig)) != 0 || (rc = store_device_save(st, &d)) != 0)
		goto out;
	k.id = 1;
	randombytes_buf(k.priv, 32);
	wa_crypto_x25519_base(k.priv, k.pub);
	if ((rc = store_prekey_put(st, &k, 1)) != 0)
		goto out;
	printf("bundle %u", d.registration_id);
	put_hex(" ", d.identity_pub, 32);
	printf(" %u", d.spk_id);
	put_hex(" ", d.spk_pub, 32);
	put_hex(" ", d.spk_sig, 64);
	printf(" %u", k.id);
	put_hex(" ", k.pub, 32);
	printf("\n");
	wa_crypto_wipe(&k, sizeof(k));
out:
	store_device_release(&d);
	return rc;
}

/* The bundle of a process command, from its words v[2..8]; 0 or -EINVAL. */
static int
parse_bundle(char **v, struct wa_signal_bundle *b)
{
	int	 rc;

	memset(b, 0, sizeof(*b));
	b->has_prekey = true;
	if ((rc = num(v[2], &b->registration_id)) != 0 ||
	    (rc = key_hex(v[3], b->identity)) != 0 ||
	    (rc = num(v[4], &b->spk_id)) != 0 ||
	    (rc = key_hex(v[5], b->spk_pub)) != 0 ||
	    from_hex(v[6], b->spk_sig, sizeof(b->spk_sig)) !=
	    WA_SIGNAL_SIG_LEN || (rc = num(v[7], &b->prekey_id)) != 0 ||
	    (rc = key_hex(v[8], b->prekey_pub)) != 0)
		return rc != 0 ? rc : -EINVAL;
	return 0;
}

/* process JID REG IDENTITY SPK_ID SPK_PUB SPK_SIG PREKEY_ID PREKEY_PUB */
static int
cmd_process(struct wa_signal *sig, const struct wa_signal_addr *a, char **v,
    struct buf *io)
{
	struct wa_signal_bundle	 b;
	int			 rc;

	(void)io;
	if ((rc = parse_bundle(v, &b)) != 0)
		return rc;
	if ((rc = wa_signal_process_bundle(sig, a, &b, NULL)) != 0)
		return rc;
	printf("ok\n");
	return 0;
}

/* encrypt JID HEX */
static int
cmd_encrypt(struct wa_signal *sig, const struct wa_signal_addr *a, char **v,
    struct buf *io)
{
	enum wa_signal_type	 t;
	uint8_t			*p = malloc(LINE_MAX_LEN / 2);
	long			 len;
	int			 rc;

	if (p == NULL)
		return -ENOMEM;
	if ((len = from_hex(v[2], p, LINE_MAX_LEN / 2)) < 0)
		rc = -EINVAL;
	else {
		io->len = 0;
		rc = wa_signal_encrypt(sig, a, p, (size_t)len, &t, io);
	}
	free(p);
	if (rc == 0)
		put_hex(t == WA_SIGNAL_PKMSG ? "pkmsg " : "msg ", io->p,
		    io->len);
	if (rc == 0)
		printf("\n");
	return rc;
}

/* decrypt JID pkmsg|msg HEX */
static int
cmd_decrypt(struct wa_signal *sig, const struct wa_signal_addr *a, char **v,
    struct buf *io)
{
	enum wa_signal_type	 t;
	uint8_t			*c = malloc(LINE_MAX_LEN / 2);
	long			 len;
	int			 rc;

	if (c == NULL)
		return -ENOMEM;
	t = strcmp(v[2], "pkmsg") == 0 ? WA_SIGNAL_PKMSG :
	    strcmp(v[2], "msg") == 0 ? WA_SIGNAL_MSG : 0;
	if (t == 0 || (len = from_hex(v[3], c, LINE_MAX_LEN / 2)) < 0)
		rc = -EINVAL;
	else {
		io->len = 0;
		rc = wa_signal_decrypt(sig, a, t, c, (size_t)len, io, NULL);
	}
	free(c);
	if (rc == 0) {
		put_hex("plain ", io->p, io->len);
		printf("\n");
	}
	return rc;
}

/* The commands: name, number of words with the name, handler. */
static const struct tool_cmd {
	const char	*name;
	size_t		 words;
	int		(*fn)(struct wa_signal *, const struct wa_signal_addr *,
			    char **, struct buf *);
} CMDS[] = {
	{ "process", 9, cmd_process },
	{ "encrypt", 3, cmd_encrypt },
	{ "decrypt", 4, cmd_decrypt },
};

static int
cmd(struct wa_signal *sig, char *line, struct buf *io)
{
	struct wa_signal_addr	 a;
	char			*v[10], *save = NULL;
	size_t			 n = 0, i;
	int			 rc;

	for (v[n] = strtok_r(line, " \t\r\n", &save); v[n] != NULL && n < 9;
	    v[++n] = strtok_r(NULL, " \t\r\n", &save))
		;
	if (n < 2)
		return -EINVAL;
	if ((rc = wa_signal_addr_from_jid(v[1], strlen(v[1]), &a)) != 0)
		return rc;
	io->len = 0;
	buf_reserve(io, LINE_MAX_LEN / 2);
	for (i = 0; i < sizeof(CMDS) / sizeof(CMDS[0]); i++)
		if (strcmp(v[0], CMDS[i].name) == 0 && n == CMDS[i].words)
			return CMDS[i].fn(sig, &a, v, io);
	return -EINVAL;
}

int
main(void)
{
	struct wa_signal_store_ops	 ops;
	struct wa_signal		*sig = NULL;
	struct buf			 io = BUF_INIT;
	char				*line = NULL, path[128];
	size_t				 cap = 0;
	ssize_t				 len;
	int				 rc, status = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (wa_crypto_init() != 0) {
		fputs("wa-signal-tool: crypto init failed\n", stderr);
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/wachat-signal-tool.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	if ((rc = store_open(dir, &st)) != 0 || (rc = reg()) != 0) {
		fprintf(stderr, "wa-signal-tool: %s\n", wc_strerror(rc));
		status = 1;
		goto out;
	}
	app_store_signal_ops(st, &ops);
	if ((rc = wa_signal_new(&ops, now_ms, NULL, &sig)) != 0) {
		fprintf(stderr, "wa-signal-tool: %s\n", wc_strerror(rc));
		status = 1;
		goto out;
	}
	while ((len = getline(&line, &cap, stdin)) > 0) {
		if ((size_t)len > LINE_MAX_LEN) {
			printf("error %d line too long\n", -E2BIG);
			continue;
		}
		if (strncmp(line, "quit", 4) == 0)
			break;
		if ((rc = cmd(sig, line, &io)) != 0)
			printf("error %d %s\n", rc, wc_strerror(rc));
	}
out:
	wa_signal_free(sig);
	if (st != NULL)
		store_close(st);
	free(line);
	if (io.p != NULL)
		wa_crypto_wipe(io.p, io.len);
	buf_release(&io);
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	(void)unlink(path);
	snprintf(path, sizeof(path), "%s/wachat.db-wal", dir);
	(void)unlink(path);
	snprintf(path, sizeof(path), "%s/wachat.db-shm", dir);
	(void)unlink(path);
	(void)rmdir(dir);
	return status;
}
