/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/node.h -- building and reading binary nodes (struct wa_node,
 * proto/bin.h) in the engine: the small helpers every stanza builder and
 * parser shares.  Builders allocate from a caller's arena (base/arena.h)
 * and borrow the strings they are given: those must outlive the encode.
 * Readers borrow from the node.  No I/O; pure functions, callable from any
 * thread on nodes that thread owns.  Source: protocol.md 4 (node layout,
 * JID encodings).
 */
#ifndef WA_NODE_H
#define WA_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "proto/bin.h"

#define WA_NODE_JID_MAX	256	/* bytes of a JID as text, with the NUL */

/* --- building --- */

/*
 * A new node with tag (borrowed) and room for maxattrs attributes, no
 * content.  Never NULL (the arena aborts on out-of-memory).
 */
struct wa_node	*wa_nb_new(struct arena *a, const char *tag, size_t maxattrs);

/*
 * Give n room for count children, zeroed, and return the array; fill
 * each with wa_nb_kid().
 */
struct wa_node	*wa_nb_kids(struct arena *a, struct wa_node *n, size_t count);

/*
 * Add one zeroed child at the end of n's children (n may have none, or
 * hold no list yet): the children are copied into a new array in a, one
 * longer; returns the new child, to fill with wa_nb_kid().  Pointers to
 * n's former children no longer name its children.  Any thread; n and a
 * the caller's.
 */
struct wa_node	*wa_nb_append(struct arena *a, struct wa_node *n);

/* Make the preallocated child c a node like wa_nb_new() does; returns c. */
struct wa_node	*wa_nb_kid(struct arena *a, struct wa_node *c, const char *tag,
		    size_t maxattrs);

/*
 * Add a string attribute (key and val borrowed).  Nothing when val is
 * NULL.  The node must have room (maxattrs).
 */
void		 wa_nb_attr(struct wa_node *n, const char *key, const char *val);

/*
 * Add a JID attribute parsed from "user[:device]@server" (or a bare
 * server), pointing into val (borrowed).  Nothing when val is NULL.
 * Returns 0, or -EINVAL when val is not a JID (nothing added).
 */
int		 wa_nb_attr_jid(struct wa_node *n, const char *key,
		    const char *val);

/* Add key="s.whatsapp.net" as a JID. */
void		 wa_nb_attr_server(struct wa_node *n, const char *key);

/* Add a decimal attribute; its digits are allocated in a. */
void		 wa_nb_attr_num(struct arena *a, struct wa_node *n,
		    const char *key, int64_t v);

/* Make n's content the bytes p[0..len) (borrowed). */
void		 wa_nb_bytes(struct wa_node *n, const void *p, size_t len);

/*
 * Parse "user[:device]@server" (or a bare server) into j, pointing into s
 * (borrowed).  Returns 0, or -EINVAL (empty, two '@', a device that is
 * not 0-65535 in decimal).
 */
int		 wa_jid_parse(const char *s, struct wa_jid *j);

/* --- reading --- */

/* The first child with tag, or NULL (also when n is NULL). */
const struct wa_node *wa_node_child(const struct wa_node *n, const char *tag);

/* A string (or bytes) attribute, or an empty wa_str when absent. */
struct wa_str	 wa_node_str(const struct wa_node *n, const char *key);

/* Whether the string attribute key equals want. */
bool		 wa_node_str_is(const struct wa_node *n, const char *key,
		    const char *want);

/*
 * Copy a string attribute into out[0..len) with a NUL, truncating; ""
 * when absent.  len must be > 0.
 */
void		 wa_node_str_copy(const struct wa_node *n, const char *key,
		    char *out, size_t len);

/*
 * A JID attribute (a JID value or a string) as "user[:device]@server" in
 * out[0..len).  Returns true, or false when absent, of another kind, or
 * longer than len - 1 (out then undefined).
 */
bool		 wa_node_jid(const struct wa_node *n, const char *key,
		    char *out, size_t len);

/* The number of n's children (0 when n is NULL or has no list). */
size_t		 wa_node_nkids(const struct wa_node *n);

/* Child i of n; i must be below wa_node_nkids(n). */
const struct wa_node *wa_node_kid(const struct wa_node *n, size_t i);

/* p[0..len) copied into a as a C string (cut at a NUL it holds).  Never
 * NULL (the arena aborts on out-of-memory). */
const char	*wa_node_strdup(struct arena *a, const char *p, size_t len);

/*
 * Attribute key (a string, bytes, or a JID as "user[:device]@server")
 * copied into a, or NULL when absent, of another kind, or a JID longer
 * than WA_NODE_JID_MAX - 1 bytes.
 */
const char	*wa_node_text(struct arena *a, const struct wa_node *n,
		    const char *key);

/*
 * A decimal attribute (1 to 18 digits): 1 and *v, 0 when absent (*v
 * untouched), WC_EPROTO when it is not such a number.
 */
int		 wa_node_num(const struct wa_node *n, const char *key,
		    int64_t *v);

/*
 * n's content as bytes (a bytes or string content): true and *p, *len
 * borrowed from n; false when n is NULL or has no such content.
 */
bool		 wa_node_bytes(const struct wa_node *n, const uint8_t **p,
		    size_t *len);

#endif
