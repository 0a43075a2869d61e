/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/fake-conn.c -- proto/conn.h without a socket
 * (tests/fakes/fake-conn.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xmalloc.h"
#include "proto/conn.h"
#include "tests/fakes/fake-conn.h"

struct wa_conn {
	struct wa_conn_cfg	 cfg;
	bool			 opening, up, freed;
	size_t			 sent;
	struct buf		 last;
};

static struct wa_conn	*last_made;

int
wa_conn_new(struct uv_loop_s *loop, const struct wa_conn_cfg *cfg,
    struct wa_conn **out)
{
	struct wa_conn	*c;

	(void)loop;
	if (cfg->rng == NULL || cfg->now_ms == NULL)
		return -EINVAL;
	c = xcalloc(1, sizeof(*c));
	c->cfg = *cfg;
	c->cfg.url = NULL;	/* borrowed strings not kept */
	c->cfg.ca_file = NULL;
	c->cfg.root_pub = NULL;
	*out = last_made = c;
	return 0;
}

int
wa_conn_open(struct wa_conn *c, const uint8_t noise_priv[WA_CONN_KEY_LEN],
    const uint8_t *payload, size_t len)
{
	(void)noise_priv;
	(void)payload;
	if (c->freed)
		return -ESHUTDOWN;
	if (c->opening || c->up)
		return -EBUSY;
	if (len == 0 || len > 64 * 1024)
		return -EINVAL;
	c->opening = true;
	return 0;
}

int
wa_conn_send(struct wa_conn *c, const uint8_t *node, size_t len)
{
	if (!c->up)
		return -ENOTCONN;
	c->last.len = 0;
	buf_append(&c->last, node, len);
	c->sent++;
	return 0;
}

bool
wa_conn_is_open(const struct wa_conn *c)
{
	return c->up;
}

void
wa_conn_close(struct wa_conn *c)
{
	c->opening = c->up = false;
}

void
wa_conn_free(struct wa_conn *c)
{
	if (c == NULL)
		return;
	if (last_made == c)
		last_made = NULL;
	buf_release(&c->last);
	free(c);
}

void
wa_conn_set_lws_log(int mask, void (*emit)(int level, const char *line))
{
	(void)mask;
	(void)emit;
}

int
wa_conn_payload_reg(const char *version, const struct wa_conn_reg *r,
    const char *push_name, struct buf *out)
{
	(void)version;
	(void)r;
	(void)push_name;
	buf_append(out, "fake-reg", 8);
	return 0;
}

int
wa_conn_payload_login(const char *version, uint64_t pn, uint32_t device,
    const char *push_name, struct buf *out)
{
	(void)version;
	(void)device;
	(void)push_name;
	if (pn == 0)
		return -EINVAL;
	buf_append(out, "fake-login", 10);
	return 0;
}

struct wa_conn *
fake_conn_last(void)
{
	return last_made;
}

bool
fake_conn_up(struct wa_conn *c)
{
	if (!c->opening)
		return false;
	c->opening = false;
	c->up = true;
	if (c->cfg.ev.on_open != NULL)
		c->cfg.ev.on_open(c->cfg.ev.arg);
	return true;
}

bool
fake_conn_frame(struct wa_conn *c, const uint8_t *p, size_t len)
{
	if (!c->up)
		return false;
	c->cfg.ev.on_frame(c->cfg.ev.arg, p, len);
	return true;
}

size_t
fake_conn_sent(const struct wa_conn *c)
{
	return c->sent;
}

const struct buf *
fake_conn_last_sent(const struct wa_conn *c)
{
	return c->sent > 0 ? &c->last : NULL;
}
