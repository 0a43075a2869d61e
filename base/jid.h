/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/jid.h -- WhatsApp JIDs as text: parsing, formatting, comparing and
 * the PN / LID / group / device predicates (protocol.md 4.3, "JIDs";
 * whatsmeow types/jid.go for the forms).  A JID is "user@server",
 * "user.agent:device@server" (an AD-JID, one device of a user) or
 * "server" alone.  The servers wachat knows are named below; any other
 * server parses and compares, and only the predicates say no.  Pure
 * functions over caller buffers, no allocation, no globals: callable from
 * any thread.
 */
#ifndef WC_JID_H
#define WC_JID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"

#define JID_SERVER_PN		"s.whatsapp.net"	/* phone-number users */
#define JID_SERVER_LID		"lid"		/* hidden (LID) users */
#define JID_SERVER_GROUP	"g.us"
#define JID_SERVER_BROADCAST	"broadcast"	/* status@broadcast, lists */
#define JID_SERVER_NEWSLETTER	"newsletter"
#define JID_SERVER_BOT		"bot"
#define JID_SERVER_HOSTED	"hosted"	/* hosted PN devices */
#define JID_SERVER_HOSTED_LID	"hosted.lid"
#define JID_SERVER_PLAIN	"c.us"		/* old PN form */

/* The longest JID wachat keeps, with its NUL: user 64, agent and device,
 * server 32; longer input is refused by jid_parse. */
#define JID_MAX			128
#define JID_USER_MAX		64	/* bytes, without NUL */
#define JID_SERVER_MAX		32

/* A parsed JID: views into the text it was parsed from (not NUL
 * terminated; lengths in bytes).  user_len 0: a server-only JID. */
struct jid {
	const char	*user;
	size_t		 user_len;
	const char	*server;
	size_t		 server_len;
	uint16_t	 agent;		/* 0 when absent */
	uint16_t	 device;	/* 0 when absent (the primary) */
	bool		 has_device;	/* ":N" was present */
};

/*
 * Parse the NUL-terminated text s into *out (views into s, which must
 * outlive *out).  The user part is split at its first ':' (the device)
 * and then at its first '.' (the agent).  Returns 0, or -EINVAL when s is
 * "" or longer than JID_MAX - 1 bytes, has more than one '@', an empty
 * user before '@', an empty or too long server or one with a ':', a user
 * over JID_USER_MAX bytes, or an agent or device that is not 0..65535 in
 * at most 5 decimal digits.  *out untouched on error.
 */
MUST_CHECK int	jid_parse(const char *s, struct jid *out);

/*
 * Write the JID j as text into out[0..size): "user[.agent][:device]@server"
 * (agent and device each only when non-zero, as WhatsApp writes them, so
 * has_device is not written: "u:0@s" comes back as "u@s"), or the server
 * alone when user_len is 0.  A JID jid_parse read formats in JID_MAX
 * bytes and parses back to the same user, server, agent and device.
 * Returns 0, or -ENAMETOOLONG when it does not fit (out then holds "").
 * out must not overlap the text j points into.
 */
MUST_CHECK int	jid_format(const struct jid *j, char *out, size_t size);

/*
 * The user JID of s ("user@server", agent and device dropped) into
 * out[0..size).  Returns true, false when s does not parse, is a
 * server-only JID or the result does not fit (out then holds "").  out
 * may be s.
 */
bool		 jid_user_of(const char *s, char *out, size_t size);

/*
 * The AD-JID of device `device` of the user of s ("user:device@server",
 * or "user@server" for device 0; an agent of s stays, as in
 * "user.agent:device@server") into out[0..size).  Returns true, false as
 * jid_user_of or when device is over 65535.  out may be s.
 */
bool		 jid_with_device(const char *s, unsigned device, char *out,
		    size_t size);

/*
 * The JID "user@server" from its two halves into out[0..size); user may
 * be NULL or "" for a server-only JID.  Nothing is checked: the halves are
 * joined as they are.  Returns true, false when it does not fit (out then
 * holds "").  out may be user.
 */
bool		 jid_make(const char *user, const char *server, char *out,
		    size_t size);

/* The device number of s, 0..65535 (0 when it has none or does not
 * parse). */
unsigned	 jid_device_of(const char *s);

/*
 * The server part of s, borrowed from s: what follows its '@', or s
 * itself when it has none ("" for "").  Never NULL.
 */
const char	*jid_server_of(const char *s);

/* s's server is exactly `server` (s parses as a JID). */
bool		 jid_server_is(const char *s, const char *server);

/* The parsed JID j's server is exactly `server` (a JID_SERVER_*), for a
 * caller that has parsed once and asks several things of it. */
bool		 jid_on(const struct jid *j, const char *server);

/* s is "user...@SERVER" for that server: a JID that parses, with a user
 * part (the server alone, "g.us", is none of them). */
bool		 jid_is_pn(const char *s);	/* @s.whatsapp.net */
bool		 jid_is_lid(const char *s);	/* @lid */
bool		 jid_is_group(const char *s);	/* @g.us */
bool		 jid_is_broadcast(const char *s); /* @broadcast */
bool		 jid_is_newsletter(const char *s); /* @newsletter */
/* A user (PN or LID) JID or one of its devices, not a group, broadcast
 * or server. */
bool		 jid_is_user(const char *s);
/* s names one device (has ":N", N may be 0). */
bool		 jid_is_device(const char *s);

/*
 * Equal JIDs: the same user, server, agent and device (a missing device
 * equals ":0").  False when either does not parse.
 */
bool		 jid_equal(const char *a, const char *b);

/* The same user on the same server, whatever the agent and device.  False
 * when either is "", does not parse or is a server-only JID. */
bool		 jid_same_user(const char *a, const char *b);

/*
 * The phone number of a PN JID: its user part when s is @s.whatsapp.net
 * and the user is all digits, copied into out[0..size).  Returns true,
 * false otherwise or when it does not fit (out then holds "").  out may
 * be s.
 */
bool		 jid_phone_of(const char *s, char *out, size_t size);

/*
 * The PN user JID of the phone number p[0..len) (digits only, 1..20 of
 * them) into out[0..size).  Returns true, false when p is not that or
 * the JID does not fit (out then holds "").  out may be p.
 */
bool		 jid_from_phone(const char *p, size_t len, char *out,
		    size_t size);

#define JID_MENTION_MIN	5	/* digits of a mention's user part */
#define JID_MENTION_MAX	20

/*
 * The next mention in t[0..len) at or after byte from, as WhatsApp
 * writes one in a message's text: '@' and JID_MENTION_MIN to
 * JID_MENTION_MAX digits (the mentioned user part, PN or LID) not
 * followed by another digit.  Returns true with the digits' offset and
 * count in *off and *n (the '@' is at *off - 1), false when there is
 * none.  Pure; any thread.
 */
bool		 jid_next_mention(const char *t, size_t len, size_t from,
		    size_t *off, size_t *n);

#endif
