/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-help.c -- the subcommands' part of --help (src/cli.h), in the
 * user's language (po/).  Main thread.
 */
#include "base/compat.h"

#include <stdio.h>

#include "base/i18n.h"
#include "src/cli.h"

void
cli_usage(FILE *f)
{
	fputs(_("\nReading the database (read-only, also while wachat "
	    "runs):\n"), f);
	fputs(_("  wachat chats [--archived] [--json]  the chats, pinned "
	    "first, then newest\n"
	    "                      first (with --archived: the archived "
	    "ones), marked\n"
	    "                      pinned, muted (until when), archived or "
	    "marked unread\n"), f);
	fputs(_("  wachat unread [--json]              the chats with unread "
	    "messages\n"), f);
	fputs(_("  wachat history CHAT [--since DATE] [--limit N] [--json]\n"
	    "                      a chat's messages, oldest first (the "
	    "newest N, default\n"
	    "                      50; with --since, the first N from DATE; "
	    "N 0: all)\n"), f);
	fputs(_("  wachat history CHAT --follow\n"
	    "                      then each new message as it is stored, "
	    "like tail -f,\n"
	    "                      until Ctrl-C or SIGTERM\n"), f);
	fputs(_("  wachat search WORDS... [--chat CHAT] [--limit N] [--json]\n"
	    "                      messages with every word of QUERY (as "
	    "word prefixes,\n"
	    "                      case and accents ignored), newest first; "
	    "among the\n"
	    "                      words, filters: from:NAME, from:+NUMBER, "
	    "from:me,\n"
	    "                      in:CHAT, after:DATE, before:DATE "
	    "(in:\"TWO WORDS\")\n"), f);
	fputs(_("  wachat search WORDS... --marks\n"
	    "                      the match as *word* in a pipe too (on a "
	    "terminal always)\n"), f);
	fputs(_("  wachat starred [CHAT] [--limit N] [--json]\n"
	    "                      the starred messages (of every chat, or "
	    "CHAT's), newest\n"
	    "                      first; is:starred among search's words "
	    "narrows it to them\n"), f);
	fputs(_("  wachat export CHAT [--format txt|jsonl]\n"
	    "                      every message of a chat, oldest first "
	    "(default txt)\n"), f);
	fputs(_("CHAT is a JID, a phone number with its country code (+49...) "
	    "or a chat's\n"
	    "name (or a unique part of it); DATE is YYYY-MM-DD or ISO 8601 "
	    "(local time\n"
	    "unless it ends in Z or +HH:MM).  --data-dir and --config as "
	    "above.\n"), f);
	fputs(_("  wachat backup FILE  a consistent copy of the database (with "
	    "what is still\n"
	    "                      in its WAL) to FILE, also while wachat "
	    "runs\n"), f);
	fputs(_("  wachat send CHAT TEXT... [--timeout SECONDS]\n"
	    "                      send TEXT to CHAT and wait for the "
	    "server's ack: through\n"
	    "                      the wachat running on the data dir, or "
	    "connecting with\n"
	    "                      the settings above (default 60 s; exit "
	    "8: not acked, it\n"
	    "                      stays in the outbox; 9: refused)\n"), f);
	fputs(_("  wachat send CHAT --file PATH [--caption TEXT] [--ptt]\n"
	    "                      send a file: its type by content, a "
	    "WebP as a\n"
	    "                      sticker, --ptt an Ogg Opus file as a "
	    "voice note; uploaded\n"
	    "                      and acked as above (9 also: over "
	    "max-media-size, or\n"
	    "                      not uploaded; 2: no such file)\n"), f);
	fputs(_("  wachat media CHAT MESSAGE-ID [--out PATH] [--timeout "
	    "SECONDS]\n"
	    "                      download a message's file into "
	    "download-dir (or PATH,\n"
	    "                      never over a file), connecting with the "
	    "settings above\n"
	    "                      (default 300 s; exit 7: a wachat runs on "
	    "the data dir;\n"
	    "                      10: failed; 11: corrupt; 12: expired; 13: "
	    "too big)\n"), f);
	fputs(_("Exit status: 0 ok, 1 usage, 2 chat (or hit) not found, 3 "
	    "database error,\n"
	    "4 CHAT names several chats (listed), 5 output not written, 6 "
	    "the database\nis damaged or empty.\n"), f);
}
