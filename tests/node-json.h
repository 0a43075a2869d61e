/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/node-json.h -- typed JSON for binary nodes, shared by the interop
 * tool and the benchmarks (format in tests/interop/README.md):
 *   node    {"tag": S, "attrs": [[KEY, VALUE], ...], "content": CONTENT}
 *   VALUE   {"s": S} | {"j": JID}
 *   CONTENT {"s": S} | {"j": JID} | {"b": HEX} | {"l": [node, ...]}
 *   JID     {"user": S, "server": S, "device": N, "agent": N, "integrator": N}
 * Test support only; single-threaded.
 */
#ifndef TEST_NODE_JSON_H
#define TEST_NODE_JSON_H

#include <json-c/json.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"

/*
 * Build a node from the JSON object j into arena a (strings are copied into
 * a).  Returns 0, or -1 with a message in err[0..errlen) when j does not
 * follow the format.
 */
int	node_from_json(struct json_object *j, struct arena *a,
	    struct wa_node **out, char *err, size_t errlen);

/* Append n as one line of compact JSON (no newline) to out. */
void	node_to_json(const struct wa_node *n, struct buf *out);

#endif
