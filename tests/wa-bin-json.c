/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/wa-bin-json.c -- wachat's node codec behind a line protocol, for the
 * interop test against Baileys and whatsapp-rust-bridge
 * (tests/interop/codec-check.mjs).
 *   wa-bin-json encode   typed JSON node per line -> hex frame payload
 *                        (flags byte 0x00 first) or "error: MESSAGE"
 *   wa-bin-json decode   hex frame payload per line -> typed JSON node or
 *                        {"error":"MESSAGE","offset":N}
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/hex.h"
#include "node-json.h"
#include "base/xmalloc.h"

static void
encode_line(const char *line, struct arena *a, struct buf *out)
{
	struct json_tokener	*tok = json_tokener_new_ex(2000);
	struct json_object	*j;
	struct wa_node		*n;
	struct buf		 bin = BUF_INIT;
	char			 err[128];
	int			 rc;

	j = json_tokener_parse_ex(tok, line, (int)strlen(line));
	json_tokener_free(tok);
	if (j == NULL) {
		fputs("error: bad JSON\n", stdout);
		return;
	}
	if (node_from_json(j, a, &n, err, sizeof(err)) != 0)
		printf("error: %s\n", err);
	else if ((rc = wa_bin_pack(n, &bin)) != 0)
		printf("error: %s\n", wc_strerror(rc));
	else {
		out->len = 0;
		hex_append(out, bin.p, bin.len);
		buf_push(out, '\n');
		fwrite(out->p, 1, out->len, stdout);
	}
	buf_release(&bin);
	json_object_put(j);
}

static void
decode_line(const char *line, size_t len, struct arena *a, struct buf *out)
{
	uint8_t		*p = xmalloc(len / 2 + 1);
	struct wa_node	*n;
	size_t		 i, off = 0;
	int		 rc;

	for (i = 0; i + 1 < len; i += 2) {
		int	 h = hex_digit(line[i]), l = hex_digit(line[i + 1]);

		if (h < 0 || l < 0) {
			printf("{\"error\":\"bad hex\",\"offset\":%zu}\n", i);
			free(p);
			return;
		}
		p[i / 2] = (uint8_t)(h << 4 | l);
	}
	if ((rc = wa_bin_unpack(p, len / 2, a, &n, &off)) != 0)
		printf("{\"error\":\"%s\",\"offset\":%zu}\n", wc_strerror(rc),
		    off);
	else {
		out->len = 0;
		node_to_json(n, out);
		buf_push(out, '\n');
		fwrite(out->p, 1, out->len, stdout);
	}
	free(p);
}

int
main(int argc, char **argv)
{
	struct arena	 a;
	struct buf	 out = BUF_INIT;
	char		*line = NULL;
	size_t		 cap = 0;
	ssize_t		 len;
	int		 enc;

	if (argc != 2 || (strcmp(argv[1], "encode") != 0 &&
	    strcmp(argv[1], "decode") != 0)) {
		fputs("usage: wa-bin-json encode|decode\n", stderr);
		return 2;
	}
	enc = strcmp(argv[1], "encode") == 0;
	arena_init(&a, 0);
	while ((len = getline(&line, &cap, stdin)) != -1) {
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (enc)
			encode_line(line, &a, &out);
		else
			decode_line(line, (size_t)len, &a, &out);
		arena_reset(&a);
	}
	fflush(stdout);
	free(line);
	buf_release(&out);
	arena_release(&a);
	return 0;
}
