/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/nodes.h -- building and reading proto/bin.h node trees in the
 * simulator.  Every allocation comes from the arena given; strings passed
 * in are copied into it.  Loop thread only.
 */
#ifndef SIM_NODES_H
#define SIM_NODES_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "proto/bin.h"

/* A node with tag and no attributes or content. */
struct wa_node	*sn_new(struct arena *a, const char *tag);
/* A copy of the C string str in a. */
char		*sn_strdup(struct arena *a, const char *str);
/* Add a string attribute. */
void		 sn_attr(struct arena *a, struct wa_node *n, const char *key,
		    const char *val);
/* Add a JID attribute user[:device]@server (user may be ""). */
void		 sn_attr_jid(struct arena *a, struct wa_node *n,
		    const char *key, const char *user, const char *server,
		    uint16_t device);
/* Add attribute key with value v as it is (not copied: v's strings must
 * outlive n). */
void		 sn_attr_val(struct arena *a, struct wa_node *n, const char *key,
		    const struct wa_val *v);
/* Append a shallow copy of node src as a child of parent (src's strings
 * and children are shared, not copied). */
void		 sn_append(struct arena *a, struct wa_node *parent,
		    const struct wa_node *src);
/* Set bytes content (copied). */
void		 sn_bytes(struct arena *a, struct wa_node *n, const void *p,
		    size_t len);
/* Append a child with tag; returns it, valid until the next sn_child() on
 * the same parent (the children array moves as it grows). */
struct wa_node	*sn_child(struct arena *a, struct wa_node *parent,
		    const char *tag);

/* The string value of attribute key ("" when absent or a JID). */
struct wa_str	 sn_get(const struct wa_node *n, const char *key);
/* The first child with tag, or NULL. */
const struct wa_node *sn_find(const struct wa_node *n, const char *tag);
/* True when n has tag. */
int		 sn_is(const struct wa_node *n, const char *tag);

#endif
