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
#include "err.h"
#include "i18n.h"
#include "xmalloc.h"

static void
usage(FILE *f)
{
	fprintf(f, _("Usage: %s [OPTION]...\n"), "wachat");
	fputs(_("A WhatsApp client for the terminal.\n\n"), f);
	fputs(_("  --decode-frame HEX  print the node in a frame payload "
	    "(hex, flags byte first)\n"), f);
	fputs(_("  -h, --help          show this help and exit\n"), f);
	fputs(_("  -V, --version       show the version and exit\n"), f);
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Print the node in the hex frame payload hex; return an exit status. */
static int
decode_frame(const char *hex)
{
	size_t		 len = strlen(hex), i, off = 0;
	uint8_t		*p;
	struct arena	 a;
	struct buf	 out = BUF_INIT;
	struct wa_node	*n;
	int		 rc, status = EXIT_SUCCESS;

	if (len % 2 != 0) {
		fprintf(stderr, _("wachat: the hex has an odd number of digits\n"));
		return EXIT_FAILURE;
	}
	p = xmalloc(len / 2);
	for (i = 0; i < len / 2; i++) {
		int	 h = hexval(hex[2 * i]), l = hexval(hex[2 * i + 1]);

		if (h < 0 || l < 0) {
			fprintf(stderr, _("wachat: not a hex digit at %zu\n"),
			    2 * i);
			free(p);
			return EXIT_FAILURE;
		}
		p[i] = (uint8_t)(h << 4 | l);
	}
	arena_init(&a, 0);
	if ((rc = wa_bin_unpack(p, len / 2, &a, &n, &off)) != 0) {
		fprintf(stderr, _("wachat: cannot decode the frame: %s "
		    "(at byte %zu)\n"), wc_strerror(rc), off);
		status = EXIT_FAILURE;
	} else {
		wa_bin_print(n, 64, &out);
		buf_push(&out, '\n');
		fwrite(out.p, 1, out.len, stdout);
	}
	buf_release(&out);
	arena_release(&a);
	free(p);
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
	int	 c;

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);

	while ((c = getopt_long(argc, argv, "hV", opts, NULL)) != -1) {
		switch (c) {
		case 'D':
			return decode_frame(optarg);
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		case 'V':
			print_version();
			return EXIT_SUCCESS;
		default:
			usage(stderr);
			return EXIT_FAILURE;
		}
	}
	usage(stderr);
	fputs(_("\nwachat cannot connect yet: the transport and pairing come "
	    "next.\n"), stderr);
	return EXIT_FAILURE;
}
