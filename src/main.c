/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/main.c -- the wachat command.  For now it offers what the project
 * has: the wire codec, as a decoder of hex frames for inspection.
 */
#include "compat.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>

#include <protobuf-c/protobuf-c.h>

#include "arena.h"
#include "bin.h"
#include "buf.h"
#include "hex.h"
#include "err.h"
#include "i18n.h"
#include "xmalloc.h"

static void
usage(FILE *f)
{
	fprintf(f, _("Usage: %s [OPTION]...\n"), "wachat");
	fputs(_("A WhatsApp client for the terminal.\n\n"), f);
	fputs(_("  --decode-frame HEX  print the node in a frame payload "
	    "(hex digits, flags\n"
	    "                      byte first; - reads them from standard "
	    "input)\n"), f);
	fputs(_("  -h, --help          show this help and exit\n"), f);
	fputs(_("  -V, --version       show the version and exit\n"), f);
}

/* Read all of standard input (at most max bytes) into a NUL-terminated
 * string; NULL when it is larger or unreadable. */
static char *
read_stdin(size_t max)
{
	size_t	 len = 0, cap = 4096, n;
	char	*p = xmalloc(cap);

	while ((n = fread(p + len, 1, cap - len - 1, stdin)) > 0) {
		len += n;
		if (len > max) {
			free(p);
			return NULL;
		}
		if (cap - len - 1 == 0)
			p = xrealloc(p, cap *= 2);
	}
	if (ferror(stdin)) {
		free(p);
		return NULL;
	}
	p[len] = '\0';
	return p;
}

/*
 * Print the node in a frame payload given as hex digits (white space
 * between them ignored); return an exit status.  Offsets in messages count
 * bytes of the payload as given, the flags byte being byte 0; in a
 * compressed frame they count bytes of the inflated node.
 */
static int
decode_frame(const char *arg)
{
	/* A frame is at most 16 MiB: two digits a byte, plus white space. */
	size_t		 max = 2 * (16u << 20) + 4096, len, i, n = 0, off = 0;
	char		*hex = NULL;
	uint8_t		*p;
	struct arena	 a;
	struct buf	 out = BUF_INIT;
	struct wa_node	*node;
	int		 rc, hi = -1, v, status = EXIT_SUCCESS;

	if (strcmp(arg, "-") == 0) {
		if ((hex = read_stdin(max)) == NULL) {
			fprintf(stderr, _("wachat: cannot read the frame from "
			    "standard input (or it is over 16 MiB)\n"));
			return EXIT_FAILURE;
		}
		arg = hex;
	}
	len = strlen(arg);
	p = xmalloc(len / 2 + 1);
	for (i = 0; i < len; i++) {
		if (arg[i] == ' ' || arg[i] == '\n' || arg[i] == '\t' ||
		    arg[i] == '\r')
			continue;
		if ((v = hex_digit((unsigned char)arg[i])) < 0) {
			fprintf(stderr, _("wachat: character %zu is not a hex "
			    "digit\n"), i + 1);
			goto fail;
		}
		if (hi < 0)
			hi = v;
		else {
			p[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	if (hi >= 0) {
		fprintf(stderr, _("wachat: the hex digits do not make whole "
		    "bytes (an odd count)\n"));
		goto fail;
	}
	arena_init(&a, 0);
	if ((rc = wa_bin_unpack(p, n, &a, &node, &off)) != 0) {
		if (n > 0 && (p[0] & WA_BIN_FLAG_COMPRESSED) != 0)
			fprintf(stderr, _("wachat: cannot decode the compressed "
			    "frame: %s (at byte %zu of the inflated node)\n"),
			    wc_strerror(rc), off);
		else
			fprintf(stderr, _("wachat: cannot decode the frame: %s "
			    "(at byte %zu)\n"), wc_strerror(rc),
			    n > 0 ? off + 1 : 0);
		status = EXIT_FAILURE;
	} else {
		wa_bin_print(node, 64, &out);
		buf_push(&out, '\n');
		fwrite(out.p, 1, out.len, stdout);
	}
	buf_release(&out);
	arena_release(&a);
	free(p);
	free(hex);
	return status;
fail:
	free(p);
	free(hex);
	return EXIT_FAILURE;
}

/* Flush standard output; a failed write is an error (a full disk, a closed
 * pipe), never a silent success. */
static int
finish(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, _("wachat: cannot write the output\n"));
		return EXIT_FAILURE;
	}
	return status;
}

/*
 * The version, and the protobuf-c this process binds to: Debian's
 * libsignal-protocol-c exports its own protobuf-c 1.1.1, and the link order
 * must make every caller (libsignal-protocol-c included, which resolves
 * through the same global scope) use the system's 1.4.1.
 */
static void
print_version(void)
{
	Dl_info	 info;
	void	*fn = dlsym(RTLD_DEFAULT, "protobuf_c_message_unpack");

	printf("wachat %s\n", PACKAGE_VERSION);
	printf("protobuf-c %s", protobuf_c_version());
	if (fn != NULL && dladdr(fn, &info) != 0 && info.dli_fname != NULL)
		printf(" (%s)", info.dli_fname);
	putchar('\n');
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "decode-frame", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char	*frame = NULL;
	bool		 help = false, version = false;
	int		 c;

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);

	while ((c = getopt_long(argc, argv, "hV", opts, NULL)) != -1) {
		switch (c) {
		case 'D':
			frame = optarg;
			break;
		case 'h':
			help = true;
			break;
		case 'V':
			version = true;
			break;
		default:
			usage(stderr);
			return EXIT_FAILURE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, _("wachat: unexpected argument '%s'\n"),
		    argv[optind]);
		usage(stderr);
		return EXIT_FAILURE;
	}
	if (help) {
		usage(stdout);
		return finish(EXIT_SUCCESS);
	}
	if (version) {
		print_version();
		return finish(EXIT_SUCCESS);
	}
	if (frame != NULL)
		return finish(decode_frame(frame));
	usage(stderr);
	fputs(_("\nwachat cannot connect yet: the transport and pairing come "
	    "next.\n"), stderr);
	return EXIT_FAILURE;
}
