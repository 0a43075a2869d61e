/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/main.c -- the wachat command: with no action it runs the client
 * (src/app.h) with the settings of src/conf.h; --decode-frame prints a
 * frame's node for inspection.
 */
#include "base/compat.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>

#include <protobuf-c/protobuf-c.h>

#include "src/app.h"
#include "base/arena.h"
#include "proto/bin.h"
#include "proto/media-probe.h"
#include "base/buf.h"
#include "src/cli.h"
#include "src/conf.h"
#include "base/hex.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/xmalloc.h"

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
	fputs(_("\nWith no action, wachat links to WhatsApp and stays "
	    "connected until stopped\n"
	    "(Ctrl-q, Ctrl-C or SIGTERM).  In a terminal it takes over "
	    "the screen: a\n"
	    "status line, the QR code to scan with the phone (WhatsApp, "
	    "Linked devices)\n"
	    "and, once linked, the chat list, the open chat's messages and "
	    "the input line.\n"
	    "Before linking:\n"
	    "  q, Ctrl-q           quit\n"
	    "  p                   before linking: type your phone number "
	    "and get a code\n"
	    "                      to enter on the phone instead of the QR "
	    "code\n"
	    "Once linked (q is text then; each key can be rebound in the "
	    "file with\n"
	    "key-ACTION = KEY, e.g. key-send = ctrl-s):\n"
	    "  Tab, Shift-Tab      next, previous chat (next-chat, "
	    "prev-chat)\n"
	    "  Ctrl-f              next chat with unread messages "
	    "(unread-chat)\n"
	    "  Ctrl-n              new chat by phone number (new-chat)\n"
	    "  PgUp, PgDn          older, newer messages (prev-page, "
	    "next-page)\n"
	    "  Enter               send (with enter-sends = no: a new "
	    "line)\n"
	    "  Ctrl-x              send, also when Enter is a new line "
	    "(send)\n"
	    "  Alt-Enter           a new line when Enter sends (newline)\n"
	    "  Up, Down            with the input empty: select a message "
	    "(up, down)\n"
	    "  Enter, Ctrl-r       reply to the selected message (reply)\n"
	    "  Alt-s               react to it: 1-6 quick ones, 0 removes "
	    "(react)\n"
	    "  Ctrl-t, Ctrl-d      send again, delete a failed message "
	    "(retry, delete)\n"
	    "  Esc                 leave the selection, the reply, a prompt "
	    "(cancel)\n"
	    "  Alt-n, Alt-t        mute (8 hours, a week, always) or unmute, pin or unpin\n"
	    "                      the chat (mute, pin)\n"
	    "  Alt-a, Alt-u        archive it, mark it unread or read (archive,\n"
	    "                      mark-unread)\n"
	    "  Alt-*               star the selected message, or unstar it (star)\n"
	    "  Alt-x, Alt-k        delete the chat, clear its messages; both ask first\n"
	    "                      (delete-chat, clear-chat)\n"
	    "  Ctrl-g              every key (help)\n"
	    "  Ctrl-q              quit (quit)\n"
	    "  Left, Right, Home, End, Ctrl-a, Ctrl-e, Backspace, Delete, "
	    "Ctrl-k, Ctrl-u\n"
	    "                      edit the input line\n"
	    "When standard input or output is not a terminal, it prints one "
	    "line per event\ninstead.\n\n"
	    "Settings (command line over the file):\n"), f);
	fputs(_("  --pair-phone NUMBER link by a code typed on the phone with "
	    "this number\n"
	    "                      (country code first; spaces, '-', '(' "
	    "and ')' are\n"
	    "                      ignored) instead of a QR code\n"), f);
	fputs(_("  --fresh-db          when the database is damaged or empty: "
	    "move it aside\n"
	    "                      (wachat.db.damaged-DATE) and link anew; "
	    "a sound one\n"
	    "                      is never moved\n"), f);
	fputs(_("  --config FILE       read settings from FILE (default:\n"
	    "                      $XDG_CONFIG_HOME/wachat/wachat.conf)\n"), f);
	fputs(_("  --url URL           the WebSocket URL (default:\n"
	    "                      wss://web.whatsapp.com/ws/chat)\n"), f);
	fputs(_("  --root-key HEX      the trusted root key of the server's "
	    "certificates,\n"
	    "                      64 hex digits (default: WhatsApp's)\n"), f);
	fputs(_("  --ca-file FILE      extra CA certificates for TLS (PEM)\n"),
	    f);
	fputs(_("  --version-url URL   where to look up the current WhatsApp "
	    "Web version\n"
	    "                      (default: "
	    "https://web.whatsapp.com/)\n"), f);
	fputs(_("  --wa-version VER    announce this WhatsApp Web version "
	    "(2.3000.N)\n"), f);
	fputs(_("  --data-dir DIR      the keys' directory (default:\n"
	    "                      $XDG_DATA_HOME/wachat)\n"), f);
	fputs(_("  --qr-file FILE      also write the pairing QR text to "
	    "FILE\n"), f);
	fputs(_("  --qr-times FIRST,NEXT  seconds the first QR code and "
	    "each next one\n"
	    "                      are shown (default 60,20)\n"), f);
	fputs(_("  --log-file FILE     the log (default:\n"
	    "                      $XDG_STATE_HOME/wachat/wachat.log)\n"), f);
	fputs(_("  --log-level LEVEL   error, warn, info (default) or debug\n"),
	    f);
	fputs(_("  --read-receipts yes|no  tell contacts when their messages "
	    "were read\n"
	    "                      (default yes)\n"), f);
	fputs(_("  --peek yes|no       read every chat without read receipts "
	    "unless Alt-p\n"
	    "                      says otherwise there (default no)\n"), f);
	fputs(_("  --send-typing yes|no    tell the chat while you type "
	    "(default yes)\n"), f);
	fputs(_("  --send-presence yes|no  tell contacts you are online "
	    "(default yes)\n"), f);
	fputs(_("  --full-history yes|no  when linking, ask the phone for all "
	    "of the history,\n"
	    "                      not about the last year (default yes)\n"),
	    f);
	fputs(_("  --enter-sends yes|no    Enter sends; no: Enter is a new "
	    "line and Ctrl-x\n"
	    "                      sends (default yes)\n"), f);
	fputs(_("  --clipboard yes|no  the copy key puts a message on the "
	    "clipboard\n"
	    "                      through the terminal (OSC 52; default "
	    "yes)\n"), f);
	fputs(_("  --bell yes|no       ring the bell for a message not on "
	    "screen\n"
	    "                      (default yes)\n"), f);
	fputs(_("  --notify-terminal none|osc777|osc9|osc99  a desktop "
	    "notification\n"
	    "                      through the terminal (default none)\n"),
	    f);
	fputs(_("  --notify-command CMD  run CMD TITLE BODY for a message "
	    "not on\n"
	    "                      screen\n"), f);
	fputs(_("  --notify-preview yes|no  notifications say the text "
	    "(default yes)\n"), f);
	fputs(_("  --title yes|no      the window title counts unread chats "
	    "(default yes)\n"), f);
	fputs(_("  --hyperlinks yes|no  URLs are the terminal's links (OSC 8; "
	    "default yes)\n"), f);
	fputs(_("  --mouse yes|no      a click opens a chat, the wheel scrolls "
	    "(default yes)\n"), f);
	fputs(_("  --link-open-command CMD  Alt-o runs CMD URL (default: "
	    "xdg-open with\n"
	    "                      a display)\n"), f);
	fputs(_("  --max-media-size SIZE  the largest file sent or fetched "
	    "(e.g. 500M;\n"
	    "                      default 2G)\n"), f);
	fputs(_("  --file-picker-command CMD  Ctrl-o runs CMD to pick a file, "
	    "%f the file\n"
	    "                      it writes the path to (default: a path "
	    "prompt)\n"), f);
	fputs(_("  --thumbnail-rows N  media thumbnails at most N rows high "
	    "(0: none;\n"
	    "                      default 6)\n"), f);
	fputs(_("  --thumbnail-protocol auto|halfblocks|kitty|sixel|iterm2|off\n"
	    "                      how they are drawn (default auto: "
	    "half-blocks in\n"
	    "                      tmux, screen and over SSH)\n"), f);
	fputs(_("  --download-dir DIR  where downloaded files go (default:\n"
	    "                      DATA-DIR/media)\n"), f);
	fputs(_("  --auto-download none|KIND:SIZE,...  download as they come: "
	    "image, video,\n"
	    "                      audio, ptt, document, sticker up to SIZE "
	    "(default\n"
	    "                      none: on request)\n"), f);
	fputs(_("  --open-command CMD  Alt-l runs CMD FILE (default: xdg-open "
	    "with a\n"
	    "                      display; else the path is shown)\n"), f);
	cli_usage(f);
}

/* The main function of subcommand name (send and media run the engine,
 * the others read the database), or NULL when it names none. */
static int
(*sub_main(const char *name))(int, char **)
{
	if (strcmp(name, "send") == 0)
		return cli_send_main;
	if (strcmp(name, "media") == 0)
		return cli_get_main;
	return cli_is_command(name) ? cli_main : NULL;
}

/* The environment the settings' defaults depend on. */
static void
get_env(struct conf_env *env)
{
	env->home = getenv("HOME");
	env->xdg_config_home = getenv("XDG_CONFIG_HOME");
	env->xdg_data_home = getenv("XDG_DATA_HOME");
	env->xdg_state_home = getenv("XDG_STATE_HOME");
}

/*
 * A phone number as people write it ("+1 (555) 000-0001") as the engine
 * takes it: the spaces, '-', '(' and ')' dropped, a leading '+' kept.  A
 * new string, freed by the caller.
 */
static char *
phone_digits(const char *s)
{
	char	*out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s != '\0'; s++)
		if (strchr(" -()", *s) == NULL)
			*o++ = *s;
	*o = '\0';
	return out;
}

/* A phone number as the engine takes it (proto/eng.c): '+' or not, then
 * 5-20 digits, the country code first (so not a 0). */
static bool
is_phone(const char *s)
{
	size_t	 n;

	if (*s == '+')
		s++;
	n = strspn(s, "0123456789");
	return s[n] == '\0' && n >= 5 && n <= 20 && s[0] != '0';
}

/* Load the settings and run the client; return an exit status. */
static int
run(const char *file, const struct conf_arg *args, size_t nargs,
    const char *pair_pn, bool fresh_db)
{
	struct conf	 c;
	struct conf_env	 env;
	struct conf_err	 err;
	char		*pn = NULL;
	int		 status;

	if (pair_pn != NULL) {
		pn = phone_digits(pair_pn);
		if (!is_phone(pn)) {
			fprintf(stderr, _("wachat: --pair-phone: not a phone "
			    "number (5 to 20 digits, country code first)\n"));
			free(pn);
			return EXIT_FAILURE;
		}
	}
	get_env(&env);
	if (conf_load(&c, &env, file, args, nargs, &err) != 0) {
		if (err.file[0] != '\0' && err.line > 0)
			fprintf(stderr, "wachat: %s:%u: %s%s%s\n", err.file,
			    err.line, err.name, err.name[0] != '\0' ? ": " :
			    "", _(err.why));
		else if (err.file[0] != '\0')
			fprintf(stderr, "wachat: %s: %s\n", err.file,
			    _(err.why));
		else
			fprintf(stderr, "wachat: --%s: %s\n", err.name,
			    _(err.why));
		free(pn);
		return EXIT_FAILURE;
	}
	status = app_run(&c, pn, fresh_db);
	conf_release(&c);
	free(pn);
	return status;
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
 * The version, the protobuf-c this process binds to, then the FFmpeg
 * libraries in use (or none).  protobuf-c: Debian's
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
	/* what a sent video carries depends on it (proto/media-video.c) */
	if (wa_media_video_version() != NULL)
		printf("ffmpeg %s\n", wa_media_video_version());
	else
		printf("ffmpeg none: videos are sent without duration, size "
		    "and thumbnail\n");
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "decode-frame", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "config", required_argument, NULL, 'C' },
		{ "pair-phone", required_argument, NULL, 'P' },
		{ "fresh-db", no_argument, NULL, 'F' },
		/* Settings: named as in the file (src/conf.h). */
		{ "url", required_argument, NULL, 'S' },
		{ "root-key", required_argument, NULL, 'S' },
		{ "ca-file", required_argument, NULL, 'S' },
		{ "version-url", required_argument, NULL, 'S' },
		{ "wa-version", required_argument, NULL, 'S' },
		{ "data-dir", required_argument, NULL, 'S' },
		{ "qr-file", required_argument, NULL, 'S' },
		{ "qr-times", required_argument, NULL, 'S' },
		{ "log-file", required_argument, NULL, 'S' },
		{ "log-level", required_argument, NULL, 'S' },
		{ "read-receipts", required_argument, NULL, 'S' },
		{ "peek", required_argument, NULL, 'S' },
		{ "send-typing", required_argument, NULL, 'S' },
		{ "send-presence", required_argument, NULL, 'S' },
		{ "enter-sends", required_argument, NULL, 'S' },
		{ "full-history", required_argument, NULL, 'S' },
		{ "clipboard", required_argument, NULL, 'S' },
		{ "bell", required_argument, NULL, 'S' },
		{ "notify-terminal", required_argument, NULL, 'S' },
		{ "notify-command", required_argument, NULL, 'S' },
		{ "notify-preview", required_argument, NULL, 'S' },
		{ "title", required_argument, NULL, 'S' },
		{ "hyperlinks", required_argument, NULL, 'S' },
		{ "mouse", required_argument, NULL, 'S' },
		{ "link-open-command", required_argument, NULL, 'S' },
		{ "max-media-size", required_argument, NULL, 'S' },
		{ "file-picker-command", required_argument, NULL, 'S' },
		{ "thumbnail-rows", required_argument, NULL, 'S' },
		{ "thumbnail-protocol", required_argument, NULL, 'S' },
		{ "download-dir", required_argument, NULL, 'S' },
		{ "auto-download", required_argument, NULL, 'S' },
		{ "open-command", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct conf_arg	 args[sizeof(opts) / sizeof(opts[0])];
	size_t		 nargs = 0, i;
	const char	*frame = NULL, *file = NULL, *pair_pn = NULL;
	bool		 help = false, version = false, fresh_db = false;
	int		 c, idx;
	int		(*sub)(int, char **);
	const char	*localedir = getenv("WACHAT_LOCALEDIR");

	setlocale(LC_ALL, "");
	/* WACHAT_LOCALEDIR: the catalogues' directory instead of the
	 * installed one (LOCALEDIR), for a build not installed (doc/wachat.1,
	 * ENVIRONMENT). */
	if (localedir == NULL || localedir[0] == '\0')
		localedir = LOCALEDIR;
	bindtextdomain(PACKAGE, localedir);
	textdomain(PACKAGE);
	/* The read-only subcommands (src/cli.h): before anything starts.
	 * --data-dir and --config may come before the subcommand's name
	 * ("wachat --data-dir D chats") as after it. */
	{
		int	 k = 1;

		while (k < argc && (strcmp(argv[k], "--data-dir") == 0 ||
		    strcmp(argv[k], "--config") == 0) && k + 1 < argc)
			k += 2;
		while (k < argc && (strncmp(argv[k], "--data-dir=", 11) == 0 ||
		    strncmp(argv[k], "--config=", 9) == 0))
			k++;
		if (k < argc && (sub = sub_main(argv[k])) != NULL) {
			/* the name first, then what came before it */
			char	*name = argv[k];

			memmove(&argv[2], &argv[1], (size_t)(k - 1) *
			    sizeof(*argv));
			argv[1] = name;
			return sub(argc - 1, argv + 1);
		}
	}

	while ((c = getopt_long(argc, argv, "hV", opts, &idx)) != -1) {
		switch (c) {
		case 'C':
			file = optarg;
			break;
		case 'P':
			pair_pn = optarg;
			break;
		case 'F':
			fresh_db = true;
			break;
		case 'S':
			/* A repeated option replaces its earlier value. */
			for (i = 0; i < nargs; i++)
				if (strcmp(args[i].name, opts[idx].name) == 0)
					break;
			args[i].name = opts[idx].name;
			args[i].value = optarg;
			if (i == nargs)
				nargs++;
			break;
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
	return finish(run(file, args, nargs, pair_pn, fresh_db));
}
