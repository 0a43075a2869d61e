/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/fake-conn.h -- the transport of proto/conn.h faked at link
 * time: tests/fakes/fake-conn.c defines every function of proto/conn.h
 * (so the linker never takes proto/conn.c, nor libwebsockets), and a
 * connection is only memory.  wa_conn_open() records the attempt;
 * fake_conn_up() plays the handshake's end (on_open) and fake_conn_frame()
 * a frame from the server (on_frame), both as the loop would call them;
 * wa_conn_send() keeps the encoded node while "open", else fails with
 * -ENOTCONN as the real one does.  wa_conn_close() and wa_conn_free()
 * call no callback (as the real ones).  The ClientPayload builders return
 * a placeholder.  For the engine's fuzz target and unit tests; one
 * thread.
 */
#ifndef WC_FAKE_CONN_H
#define WC_FAKE_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

struct wa_conn;

/* The connection made last by wa_conn_new() (not freed), or NULL. */
struct wa_conn	*fake_conn_last(void);

/* The handshake is done: on_open, and sends succeed from now on.  Returns
 * false (nothing called) when no wa_conn_open() is pending. */
bool		 fake_conn_up(struct wa_conn *c);

/* Deliver p[0..len) (flags byte, then the node) as a frame: on_frame.
 * Returns false (nothing called) when the connection is not up. */
bool		 fake_conn_frame(struct wa_conn *c, const uint8_t *p,
		    size_t len);

/* Nodes sent since the connection was made; the last one (encoded, no
 * flags byte), or NULL when none. */
size_t		 fake_conn_sent(const struct wa_conn *c);
const struct buf *fake_conn_last_sent(const struct wa_conn *c);

#endif
