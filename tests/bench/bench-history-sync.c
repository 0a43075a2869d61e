/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench-history-sync.c -- bench H1 history_sync_ingest of
 * perf.md 3.1 (whatsapp-rust's history_sync_benchmark.rs scope): one
 * HistorySync chunk of 500 conversations x 40 messages (20,000), zlib-
 * compressed, is inflated (wa_hist_inflate) and fully parsed
 * (wa_hist_parse: wa_pb_check of the chunk and of every message's E2E
 * bytes, protobuf-c unpack into the arena, the flat structs):
 *
 *   bench-history-sync [--iters N] [--samples S] [--convs C] [--per M]
 *
 * The fixture is deterministic (fixed seed): 1 conversation in 5 is a
 * group (participants on the key and the message, 8 members listed); the
 * texts mix English, Spanish, Russian, Arabic, Hindi, Chinese and
 * Japanese words and emoji, 1 to 40 words, with about 1 in 8 a reply
 * (extendedTextMessage with a quote); incoming messages carry a push
 * name; push names and PN-LID mappings are listed at the end.  Each
 * message is a real E2E Message from wa_msg_build_text().
 *
 * One operation: inflate into a reused struct buf, parse into a reused
 * arena, reset the arena.  Warm, that calls malloc 0 times with zlib (its
 * state comes from the arena too), once with libdeflate; "allocs" counts one warm operation
 * across the process and "allocs_per_msg" divides it by the messages;
 * "cold_allocs" is the first operation on a fresh arena and buffer;
 * "malloc_unpack_allocs" is what protobuf-c's default allocator would
 * have cost for the same unpack (perf.md 2.5's 7.1 per message).
 * "mb_s" is decompressed MB (10^6 bytes) per second at the median;
 * "arena_bytes" is what the arena holds for one chunk and "out_cap" the
 * inflate buffer; "inflater" is libdeflate when built with it (one malloc
 * per chunk: its decompressor), else zlib;
 * "inflate_median_ns" and "parse_median_ns" split the median.  One JSON
 * line on stdout (perf.md 3.0), a summary on stderr.  Single-threaded.
 */
#include "base/compat.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc-count.h"
#include "base/arena.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/history.h"
#include "history.pb-c.h"
#include "proto/msg.h"

#ifdef HAVE_LIBDEFLATE
#define INFLATER	"libdeflate"	/* proto/history.c's fast path */
#else
#define INFLATER	"zlib"
#endif

static const char *const words[] = {
	"the", "meeting", "tomorrow", "is", "at", "eight", "ok", "thanks",
	"see", "you", "later", "photo", "sent", "where", "are", "home",
	"hola", "mañana", "gracias", "nos", "vemos", "qué", "tal",
	"привет", "как", "дела", "спасибо", "завтра", "хорошо",
	"مرحبا", "شكرا", "غدا", "كيف", "حالك",
	"नमस्ते", "धन्यवाद", "कल", "मिलते", "हैं",
	"你好", "明天", "见", "谢谢", "好的",
	"こんにちは", "ありがとう", "また", "明日",
	"🙂", "😂", "👍", "❤️", "🎉", "👨‍👩‍👧",
};
#define N_WORDS	(sizeof(words) / sizeof(words[0]))

static uint64_t	 rng = 0x9E3779B97F4A7C15ull;

static uint32_t
rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static void
text(char *out, size_t len)
{
	size_t	 n = 1 + rnd(8), pos = 0, i;

	if (rnd(10) == 0)
		n += rnd(32);	/* a long tail */
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		const char	*w = words[rnd(N_WORDS)];
		size_t		 wl = strlen(w);

		if (pos + wl + 2 >= len)
			break;
		if (i > 0)
			out[pos++] = ' ';
		memcpy(out + pos, w, wl);
		pos += wl;
		out[pos] = '\0';
	}
}

struct fixture {
	struct wa_hist		 h;
	struct buf		*e2e;
	char			*strs;	/* all ids, JIDs and names */
	size_t			 strs_len;
	struct buf		 z;	/* the compressed chunk */
	size_t			 inflated;
};

static char *
fx_str(struct fixture *f, const char *s)
{
	size_t	 n = strlen(s) + 1;
	char	*p;

	if (f->strs_len + n > 16u << 20)
		abort();
	p = f->strs + f->strs_len;
	memcpy(p, s, n);
	f->strs_len += n;
	return p;
}

static void
fixture_make(struct fixture *f, size_t n_convs, size_t per)
{
	struct buf	 pb = BUF_INIT;
	size_t		 i, j, k = 0;
	char		 t[1024], s[128], q[1024];

	memset(f, 0, sizeof(*f));
	f->strs = malloc(16u << 20);
	f->e2e = calloc(n_convs * per, sizeof(*f->e2e));
	f->h.sync_type = WA_HIST_RECENT;
	f->h.chunk_order = 1;
	f->h.progress = 10;
	f->h.convs = calloc(n_convs, sizeof(*f->h.convs));
	f->h.n_convs = n_convs;
	f->h.pushnames = calloc(n_convs, sizeof(*f->h.pushnames));
	f->h.lid_maps = calloc(n_convs, sizeof(*f->h.lid_maps));
	for (i = 0; i < n_convs; i++) {
		struct wa_hist_conv	*c = &f->h.convs[i];
		bool			 group = i % 5 == 4;
		char			 jid[64], lid[64];

		if (group)
			snprintf(jid, sizeof(jid), "120363%012zu@g.us", i);
		else
			snprintf(jid, sizeof(jid), "1555%07zu@s.whatsapp.net", i);
		snprintf(lid, sizeof(lid), "1000000%08zu@lid", i);
		c->id = fx_str(f, jid);
		text(t, 48);
		c->name = group ? fx_str(f, t) : NULL;
		c->pn_jid = group ? NULL : c->id;
		c->lid_jid = group ? NULL : fx_str(f, lid);
		c->conversation_ts_s = 1700000000 + i * 3600;
		c->last_msg_ts_s = c->conversation_ts_s;
		c->unread_count = rnd(5);
		c->archived = rnd(20) == 0;
		c->pinned = i < 3 ? (uint32_t)(i + 1) : 0;
		c->msgs = calloc(per, sizeof(*c->msgs));
		c->n_msgs = per;
		if (group) {
			c->participants = calloc(8, sizeof(*c->participants));
			for (j = 0; j < 8; j++) {
				snprintf(s, sizeof(s),
				    "1555%07zu@s.whatsapp.net", (i + j) % n_convs);
				c->participants[j].jid = fx_str(f, s);
				c->participants[j].rank = j == 0 ? 2 : 0;
			}
			c->n_participants = 8;
		} else {
			f->h.pushnames[f->h.n_pushnames].jid = c->id;
			text(t, 32);
			f->h.pushnames[f->h.n_pushnames++].name = fx_str(f, t);
			f->h.lid_maps[f->h.n_lid_maps].pn_jid = c->id;
			f->h.lid_maps[f->h.n_lid_maps++].lid_jid = c->lid_jid;
		}
		for (j = 0; j < per; j++, k++) {
			struct wa_hist_msg	*m = &c->msgs[j];
			struct wa_msg_text	 mt = { 0 };

			text(t, sizeof(t));
			mt.text = t;
			if (rnd(8) == 0 && j > 0) {
				text(q, 200);
				mt.quoted_id = c->msgs[j - 1].id;
				mt.quoted_text = q;
			}
			if (wa_msg_build_text(&mt, &f->e2e[k]) != 0)
				abort();
			snprintf(s, sizeof(s), "3EB0%018zX", k * 2654435761u);
			m->id = fx_str(f, s);
			m->remote_jid = c->id;
			m->from_me = rnd(3) == 0;
			m->message = f->e2e[k].p;
			m->message_len = f->e2e[k].len;
			m->ts_s = c->conversation_ts_s - (per - j) * 60;
			m->status = m->from_me ? 4 : -1;
			m->msg_order_id = j + 1;
			if (group && !m->from_me) {
				m->key_participant =
				    c->participants[1 + rnd(7)].jid;
				m->participant = m->key_participant;
			}
			if (!m->from_me && f->h.n_pushnames > 0)
				m->push_name = f->h.pushnames[rnd(
				    (uint32_t)f->h.n_pushnames)].name;
		}
		f->h.n_msgs += per;
	}
	if (wa_hist_build(&f->h, &pb) != 0 ||
	    wa_hist_deflate(pb.p, pb.len, -1, &f->z) != 0)
		abort();
	f->inflated = pb.len;
	buf_release(&pb);
}

static uint64_t
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t	 a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* One operation; returns the messages parsed.  The split times go to
 * *t_inf and *t_parse when not NULL. */
__attribute__((noinline)) static size_t
bench_history_sync_op(const struct fixture *f, struct arena *a,
    struct buf *out, uint64_t *t_inf, uint64_t *t_parse)
{
	struct wa_hist	*h = NULL;
	const char	*why = NULL;
	uint64_t	 t0 = t_inf != NULL ? now_ns() : 0, t1;
	size_t		 n;

	out->len = 0;
	if (wa_hist_inflate(f->z.p, f->z.len, 0, a, out, &why) != 0) {
		fprintf(stderr, "bench-history-sync: inflate: %s\n", why);
		exit(1);
	}
	t1 = t_inf != NULL ? now_ns() : 0;
	if (wa_hist_parse(out->p, out->len, a, &h, &why) != 0) {
		fprintf(stderr, "bench-history-sync: parse: %s\n", why);
		exit(1);
	}
	n = h->n_msgs;
	if (t_inf != NULL) {
		*t_parse = now_ns() - t1;
		*t_inf = t1 - t0;
	}
	arena_reset(a);
	return n;
}

int
main(int argc, char **argv)
{
	static const struct option	 opts[] = {
		{ "iters", required_argument, NULL, 'i' },
		{ "samples", required_argument, NULL, 's' },
		{ "convs", required_argument, NULL, 'c' },
		{ "per", required_argument, NULL, 'p' },
		{ "only", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	struct fixture		 f;
	struct arena		 a;
	struct buf		 out = BUF_INIT;
	struct alloc_count	 cold, warm, naive;
	size_t			 iters = 5, samples = 15, convs = 500, per = 40;
	size_t			 i, j, n = 0, arena_bytes;
	uint64_t		*t, *ti, *tp, tot, x, y;
	int			 ch;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'i':
			iters = strtoul(optarg, NULL, 10);
			break;
		case 's':
			samples = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			convs = strtoul(optarg, NULL, 10);
			break;
		case 'p':
			per = strtoul(optarg, NULL, 10);
			break;
		case 'o':
			if (strcmp(optarg, "history_sync_ingest") != 0)
				return 0;
			break;
		default:
			fprintf(stderr, "usage: bench-history-sync [--iters N]"
			    " [--samples S] [--convs C] [--per M]\n");
			return 2;
		}
	}
	if (iters == 0 || samples == 0 || convs == 0 || per == 0 ||
	    wa_crypto_init() != 0)
		return 2;
	fixture_make(&f, convs, per);

	/* Cold: a fresh arena (1 MiB chunks) and buffer. */
	arena_init(&a, 1u << 20);
	alloc_count_start();
	n = bench_history_sync_op(&f, &a, &out, NULL, NULL);
	alloc_count_stop(&cold);
	if (n != convs * per) {
		fprintf(stderr, "bench-history-sync: parsed %zu of %zu\n", n,
		    convs * per);
		return 1;
	}
	(void)bench_history_sync_op(&f, &a, &out, NULL, NULL);
	/* After a reset the arena is one chunk of what a chunk needed. */
	arena_bytes = a.avail;
	alloc_count_start();
	(void)bench_history_sync_op(&f, &a, &out, NULL, NULL);
	alloc_count_stop(&warm);

	/* protobuf-c's default allocator on the same bytes, for reference. */
	{
		Wahist__HistorySync	*hs;

		alloc_count_start();
		hs = wahist__history_sync__unpack(NULL, out.len, out.p);
		alloc_count_stop(&naive);
		if (hs == NULL)
			return 1;
		wahist__history_sync__free_unpacked(hs, NULL);
	}

	t = calloc(samples, sizeof(*t));
	ti = calloc(samples * iters, sizeof(*ti));
	tp = calloc(samples * iters, sizeof(*tp));
	for (i = 0; i < samples; i++) {
		uint64_t	 t0 = now_ns();

		for (j = 0; j < iters; j++)
			(void)bench_history_sync_op(&f, &a, &out, NULL, NULL);
		t[i] = (now_ns() - t0) / iters;
	}
	for (i = 0; i < samples * iters; i++)
		(void)bench_history_sync_op(&f, &a, &out, &ti[i], &tp[i]);
	qsort(t, samples, sizeof(*t), cmp_u64);
	qsort(ti, samples * iters, sizeof(*ti), cmp_u64);
	qsort(tp, samples * iters, sizeof(*tp), cmp_u64);
	tot = t[samples / 2];
	x = ti[samples * iters / 2];
	y = tp[samples * iters / 2];
	printf("{\"name\":\"history_sync_ingest\",\"median_ns\":%llu,"
	    "\"min_ns\":%llu,\"p95_ns\":%llu,\"allocs\":%llu,\"bytes\":%llu,",
	    (unsigned long long)tot, (unsigned long long)t[0],
	    (unsigned long long)t[(samples * 95) / 100 < samples ?
	    (samples * 95) / 100 : samples - 1],
	    (unsigned long long)warm.calls, (unsigned long long)warm.bytes);
	printf("\"allocs_per_msg\":%.4f,\"cold_allocs\":%llu,"
	    "\"cold_bytes\":%llu,\"malloc_unpack_allocs\":%llu,"
	    "\"malloc_unpack_allocs_per_msg\":%.2f,",
	    (double)warm.calls / (double)n, (unsigned long long)cold.calls,
	    (unsigned long long)cold.bytes, (unsigned long long)naive.calls,
	    (double)naive.calls / (double)n);
	printf("\"mb_s\":%.1f,\"inflate_median_ns\":%llu,"
	    "\"parse_median_ns\":%llu,\"messages\":%zu,\"conversations\":%zu,"
	    "\"inflated_bytes\":%zu,\"compressed_bytes\":%zu,"
	    "\"arena_bytes\":%zu,\"out_cap\":%zu,\"inflater\":\"%s\","
	    "\"alloc_counter\":%s,\"iters\":%zu,\"samples\":%zu}\n",
	    (double)f.inflated / ((double)tot / 1e9) / 1e6,
	    (unsigned long long)x, (unsigned long long)y, n, convs,
	    f.inflated, f.z.len, arena_bytes, out.cap, INFLATER,
	    alloc_count_is_active() ? "true" : "false", iters, samples);
	fprintf(stderr, "history_sync_ingest: %.3f ms per chunk (min %.3f; "
	    "inflate %.3f + parse %.3f), %.0f MB/s decompressed, %llu allocs "
	    "warm (%.4f per message), %llu cold; protobuf-c with malloc: "
	    "%.1f per message; %zu messages, %zu -> %zu bytes\n",
	    (double)tot / 1e6, (double)t[0] / 1e6, (double)x / 1e6,
	    (double)y / 1e6, (double)f.inflated / ((double)tot / 1e9) / 1e6,
	    (unsigned long long)warm.calls, (double)warm.calls / (double)n,
	    (unsigned long long)cold.calls, (double)naive.calls / (double)n, n,
	    f.z.len, f.inflated);
	free(t);
	free(ti);
	free(tp);
	buf_release(&out);
	arena_release(&a);
	return 0;
}
